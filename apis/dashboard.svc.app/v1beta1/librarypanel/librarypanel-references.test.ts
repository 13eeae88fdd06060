import { libraryPanelsWithoutUid, libraryPanelUids } from './librarypanel-references';

describe('libraryPanelUids', () => {
  it('collects the uids of panels and of panels in rows, in order, each once', () => {
    const dashboard = {
      panels: [
        { libraryPanel: { uid: 'a', name: 'A' } },
        { type: 'row', panels: [{ libraryPanel: { uid: 'b' } }, { libraryPanel: { uid: 'a' } }] },
        { type: 'stat' },
        { libraryPanel: { uid: 'c' } },
      ],
    };
    expect(libraryPanelUids(dashboard)).toEqual(['a', 'b', 'c']);
  });

  it('ignores what names no uid, and JSON of other shapes', () => {
    expect(libraryPanelUids({ panels: [{ libraryPanel: { uid: '' } }, { libraryPanel: 'a' }, null, 7, [{ libraryPanel: { uid: 'x' } }]] })).toEqual([]);
    expect(libraryPanelUids({ panels: 'nope' })).toEqual([]);
    expect(libraryPanelUids(null)).toEqual([]);
    // Deeper than a row's panels is no panel of the dashboard.
    expect(libraryPanelUids({ panels: [{ panels: [{ panels: [{ libraryPanel: { uid: 'deep' } }] }] }] })).toEqual([]);
  });
});

describe('libraryPanelsWithoutUid', () => {
  it('names each libraryPanel header without a uid, rows included', () => {
    const dashboard = { panels: [{ libraryPanel: { name: 'x' } }, { panels: [{ libraryPanel: { uid: 'ok' } }, { libraryPanel: {} }] }, { libraryPanel: null }] };
    expect(libraryPanelsWithoutUid(dashboard)).toEqual(['spec.panels[0].libraryPanel.uid', 'spec.panels[1].panels[1].libraryPanel.uid']);
  });
});
