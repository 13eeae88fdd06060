/** Label and field selectors of list and watch requests, with kube-apiserver's syntax, matching and errors. */
export { parseLabelSelector, matchesLabels, formatLabelSelector } from './label-selector';
export type { LabelOperator, LabelRequirement } from './label-selector';
export { parseFieldSelector, matchesFields } from './field-selector';
export type { FieldOperator, FieldRequirement } from './field-selector';
