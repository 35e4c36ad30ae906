// zod/mini, not classic: the extension's background and popup bundle this file.
import * as z from 'zod/mini';

/** Where the extension keeps what agents did in this browser (chrome.storage.local), oldest first. */
export const ACTIVITY_RECORD_KEY = 'activityRecord';
export const MAX_ACTIVITY_ENTRIES = 300;

/**
 * One call of an agent, as the person reads it in the popup: where, what, when, how it ended, and
 * for a consequential action who let it run. `what` is the control's caption (page text).
 */
export const ActivityEntry = z.object({
  at: z.number(),
  site: z.string().check(z.maxLength(253)),
  tool: z.string().check(z.maxLength(256)),
  answer: z.enum(['done', 'failed', 'denied']),
  /** Only for consequential actions: confirmed by the person, allowed by policy, denied, or not answered. */
  confirmation: z.optional(
    z.enum(['confirmed', 'allowed by policy', 'denied by the person', 'denied by policy', 'no answer']),
  ),
  what: z.optional(z.string().check(z.maxLength(200))),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;
export type Confirmation = NonNullable<ActivityEntry['confirmation']>;

export const ActivityRecord = z.array(ActivityEntry).check(z.maxLength(MAX_ACTIVITY_ENTRIES));

/** Extension pages → background: forget the record (the popup's "Clear"). */
export const CLEAR_ACTIVITY_MESSAGE = 'tabmcp/clear-activity';
