import { press, release } from './input';
import { afterQueuedTasks } from './settle-wait';

/**
 * A click as a person makes it: the press, then the release a moment later, after the page had its
 * turns. A page often answers the press by rendering and arms listeners for the release then: Radix
 * Select's menu, opened by the trigger's pointerdown, swallows the next pointerup (for a person, the
 * trigger's own) so that the press that opened it picks no option. Pressed and released in one task,
 * the trigger's release came before that listener, which then swallowed the option's: nothing was
 * picked. Two turns of the event loop: the first runs what the press queued (React's render and its
 * effects, in microtasks), the second what that render queued in turn (a scheduler's task).
 */
export async function clickInTurns(element: Element): Promise<void> {
  press(element);
  await nextTurn();
  await nextTurn();
  release(element);
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => afterQueuedTasks(resolve));
}
