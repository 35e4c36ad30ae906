/** At most this many of a browser's frames wait for one connect's answer; past it the newest are dropped, logged. */
const MAX_FRAMES = 256;
/** And at most this much of them. */
const MAX_BYTES = 1024 * 1024;
/**
 * And for at most this long. The window closes when the attach settles, which its own deadlines bound
 * (`connectTimeoutMs` for the look-up, again for the other instance's answer); this holds when those are set long.
 */
const MAX_AGE_MS = 30_000;

interface HeldFrame {
  /** The node whose browser sent it: only the one the connect ends up attached through is believed. */
  fromNode: string;
  frame: string;
}

/** What became of the frames a window held, for its log line. */
export interface WindowOutcome {
  delivered: number;
  /** Past the window's bounds. */
  overflowed: number;
  /** From another node than the one the connection was attached through, or the connect failed. */
  discarded: number;
}

/**
 * A client's connect window (decision 384): from the moment the browser may know of the attach (it is told at once,
 * with its `status`) until the client has the answer to its `connect`, what the browser sends that connection waits
 * here, then goes out behind the answer in the order it came. Before, a notification in that window reached a client
 * on the same instance ahead of the answer (a client may drop what names a connection it does not know yet) and was
 * dropped on the way to a client on another instance, whose link was not set yet.
 */
export class ConnectWindow {
  private readonly held: HeldFrame[] = [];
  private readonly openedAt = performance.now();
  private bytes = 0;
  private overflowed = 0;

  hold(fromNode: string, frame: string): void {
    const full = this.held.length >= MAX_FRAMES || this.bytes + frame.length > MAX_BYTES;
    if (full || performance.now() - this.openedAt > MAX_AGE_MS) {
      this.overflowed++;
      return;
    }
    this.held.push({ fromNode, frame });
    this.bytes += frame.length;
  }

  /** Closes the window: the frames `nodeId`'s browser sent, in order, for the client (none when it failed). */
  close(nodeId: string | undefined): { frames: string[]; outcome: WindowOutcome } {
    const frames = this.held.filter((held) => held.fromNode === nodeId).map((held) => held.frame);
    const outcome = {
      delivered: frames.length,
      overflowed: this.overflowed,
      discarded: this.held.length - frames.length,
    };
    this.held.length = 0;
    this.bytes = 0;
    return { frames, outcome };
  }
}
