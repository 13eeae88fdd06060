import { z } from 'zod';
import { defineArea, guard } from '../shared';
import { DEFAULT_LIMIT, MAX_LIMIT } from './search-conversions';
import { search } from './search-routes';

const hitSchema = z.object({
  id: z.int().describe('legacy numeric id'),
  uid: z.string(),
  title: z.string(),
  uri: z.string().describe('db/<slug>'),
  url: z.string().describe('the page in the frontend'),
  slug: z.string(),
  type: z.enum(['dash-db', 'dash-folder']),
  tags: z.array(z.string()),
  isStarred: z.boolean(),
  folderId: z.int().optional().describe('absent at the root and when the caller may not read the folder'),
  folderUid: z.string().optional().describe('absent at the root'),
  folderTitle: z.string().optional().describe('absent at the root and when the caller may not read the folder'),
  folderUrl: z.string().optional().describe('absent at the root and when the caller may not read the folder'),
  sortMeta: z.int(),
});

const sortOptionSchema = z.object({ name: z.string(), displayName: z.string(), description: z.string(), meta: z.string() });

/** The orders `sort` takes (the anchor's alphabetical ones; it lists its other sorts only where it serves them). */
const SORT_OPTIONS: z.infer<typeof sortOptionSchema>[] = [
  { name: 'alpha-asc', displayName: 'Alphabetically (A–Z)', description: 'Sort results in an alphabetically ascending order', meta: '' },
  { name: 'alpha-desc', displayName: 'Alphabetically (Z–A)', description: 'Sort results in an alphabetically descending order', meta: '' },
];

/** `GET /api/search` (search-routes.ts): the registry shows only what the caller may see. */
export const searchArea = defineArea({
  name: 'search',
  routes: [
    {
      method: 'get', path: '/api/search', guard: guard.signedIn, handler: search,
      operationId: 'search',
      summary: 'Search folders and dashboards.',
      description:
        'Only what the caller may view (with permission=Edit, edit). Without sort: folders first, then dashboards, each by title; ' +
        'with alpha-asc or alpha-desc: both together by title (case-insensitive).',
      tags: ['search'],
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'case-insensitive substring of the title' },
        { name: 'tag', in: 'query', type: 'string', array: true, description: 'repeated; hits carry every tag' },
        { name: 'type', in: 'query', type: 'string', enum: ['dash-db', 'dash-folder'] },
        { name: 'folderUIDs', in: 'query', type: 'string', array: true, description: 'repeated; empty or "general" = the root' },
        { name: 'dashboardUIDs', in: 'query', type: 'string', array: true, description: 'repeated' },
        { name: 'folderIds', in: 'query', type: 'integer', array: true, description: 'deprecated, use folderUIDs: repeated legacy folder ids, 0 = the root' },
        { name: 'dashboardIds', in: 'query', type: 'integer', array: true, description: 'deprecated, use dashboardUIDs: repeated legacy dashboard ids' },
        { name: 'starred', in: 'query', type: 'boolean', description: "only the caller's starred dashboards" },
        { name: 'limit', in: 'query', type: 'integer', default: DEFAULT_LIMIT, description: `page size, at most ${MAX_LIMIT}` },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'sort', in: 'query', type: 'string', enum: ['alpha-asc', 'alpha-desc'] },
        { name: 'permission', in: 'query', type: 'string', enum: ['View', 'Edit'], default: 'View' },
      ],
      responses: {
        200: { description: 'The hits.', schema: z.array(hitSchema), name: 'HitList' },
        401: {},
        422: { description: `limit above ${MAX_LIMIT}` },
      },
    },
    {
      method: 'get', path: '/api/search/sorting', guard: guard.signedIn, handler: (_req, res) => void res.json({ sortOptions: SORT_OPTIONS }),
      operationId: 'listSortOptions', summary: 'The sort orders /api/search takes.', tags: ['search'],
      responses: { 200: { description: 'The options, as the anchor lists them.', schema: z.object({ sortOptions: z.array(sortOptionSchema) }), name: 'ListSortOptionsResponse' }, 401: {} },
    },
  ],
});
