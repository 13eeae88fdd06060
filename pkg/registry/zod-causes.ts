import type { z } from 'zod';
import type { StatusCause } from '../errors';

/**
 * The options of the registry's schema checks: failing values are reported (`reportInput`). `async: false` is
 * zod's own: it copies the options into each parse's context with `{ ...options, async: false }`, and naming it here
 * makes that copy override a member instead of adding one. On Node 20 a spread copy given a new member gets a hidden
 * class of its own (pkg/meta/extend.ts), and every schema node of every parse then read its context through V8's
 * slow lookups (issue 16).
 *
 * @example kind.specSchema.safeParse(obj.spec, REPORTING_PARSE)
 */
export const REPORTING_PARSE = { reportInput: true, async: false } as z.core.ParseContext<z.core.$ZodIssue>;

/**
 * zod issues as Kubernetes field causes: `spec.title: Required value`, `spec.items[0].type: Invalid value: ...`.
 * Values of fields at or below `hidden` paths (secrets) are not shown.
 */
export function causesFromZod(error: z.ZodError, prefix: string, hidden: readonly string[] = []): StatusCause[] {
  return error.issues.map((issue) => {
    const field = issue.path.reduce<string>(
      (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${String(part)}`),
      prefix,
    );
    const input = (issue as { input?: unknown }).input;
    if (issue.code === 'invalid_type' && input === undefined) {
      return { reason: 'FieldValueRequired', field, message: 'Required value' };
    }
    if (issue.code === 'unrecognized_keys') {
      return { reason: 'FieldValueInvalid', field, message: issue.message };
    }
    // kube's field.TooLong and field.TooMany, which show no value (a million characters say nothing more).
    if (issue.code === 'too_big' && issue.origin === 'string') {
      return { reason: 'FieldValueTooLong', field, message: `Too long: may not be more than ${issue.maximum} characters` };
    }
    if (issue.code === 'too_big' && issue.origin === 'array') {
      return { reason: 'FieldValueTooMany', field, message: `Too many: ${Array.isArray(input) ? input.length : '?'}: must have at most ${issue.maximum} items` };
    }
    const secret = hidden.some((h) => field === h || field.startsWith(`${h}.`) || h.startsWith(`${field}.`));
    const shown = input === undefined || secret ? '' : `${truncate(JSON.stringify(input))}: `;
    return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${shown}${issue.message}` };
  });
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
