import { JsonRpcErrorObject } from '@tabmcp/protocol';
import { z } from 'zod';

/**
 * Messages between proxy instances (over the cluster bus). `from` is the sending node, so answers know
 * where to go. Validated on arrival like any other input: a bus is a boundary too.
 */
const Node = z.string().min(1).max(200);
const Id = z.string().min(1).max(300);

export const AttachEnvelope = z.object({
  t: z.literal('attach'),
  from: Node,
  rid: Id,
  connectionId: Id,
  extensionId: Id,
  userId: z.string().min(1).max(256),
  mcpClientId: Id,
});

const AttachResultEnvelope = z.object({
  t: z.literal('attach-result'),
  from: Node,
  rid: Id,
  connectionId: Id,
  extensionId: Id,
  ok: z.boolean(),
  extensionName: z.string().max(200).optional(),
  peerCount: z.number().int().nonnegative().optional(),
  message: z.string().max(500).optional(),
});

const DetachEnvelope = z.object({ t: z.literal('detach'), from: Node, connectionId: Id, extensionId: Id });

/** A client's request (with a mapped id) or notification (without) for an extension on another node. */
const CallEnvelope = z.object({
  t: z.literal('call'),
  from: Node,
  connectionId: Id,
  extensionId: Id,
  userId: z.string().min(1).max(256),
  id: z.string().max(1024).optional(),
  method: z.string().min(1).max(256),
  params: z.unknown().optional(),
});

const ReplyEnvelope = z.object({
  t: z.literal('reply'),
  from: Node,
  connectionId: Id,
  id: z.string().max(1024),
  result: z.unknown().optional(),
  error: z.optional(JsonRpcErrorObject),
});

const ExtensionNotifyEnvelope = z.object({
  t: z.literal('ext-notify'),
  from: Node,
  connectionIds: z.array(Id).max(100_000),
  method: z.string().min(1).max(256),
  params: z.unknown().optional(),
});

const EndedEnvelope = z.object({
  t: z.literal('ended'),
  from: Node,
  connectionIds: z.array(Id).max(100_000),
  reason: z.string().max(500),
});

/**
 * A newer session of this browser registered elsewhere (issue 39 Q4): the receiver closes its own session of that
 * id, if it is still the named one.
 */
const RetireEnvelope = z.object({
  t: z.literal('retire'),
  from: Node,
  userId: z.string().min(1).max(256),
  extensionId: Id,
  session: Id,
});

/** How many ids one check may carry; a node with more in flight checks the oldest first. */
export const MAX_CHECKED = 5_000;

/**
 * Liveness of the reply path (issue 39 Q2): the caller's node asks the browser's node which of these calls it still
 * holds. Replies leave the browser's node in order on one connection, so a call neither held nor answered by the
 * time the answer arrives was lost on the way, one way or the other.
 */
const CallsCheckEnvelope = z.object({
  t: z.literal('calls-check'),
  from: Node,
  rid: Id,
  calls: z.array(z.object({ connectionId: Id, id: z.string().max(1024) })).max(MAX_CHECKED),
});

const CallsHeldEnvelope = z.object({
  t: z.literal('calls-held'),
  from: Node,
  rid: Id,
  held: z.array(z.string().max(1024)).max(MAX_CHECKED),
});

/** The browser's node asks a client's node which of these connections it still holds (issue 39 Q7). */
const ClientsCheckEnvelope = z.object({
  t: z.literal('clients-check'),
  from: Node,
  rid: Id,
  connectionIds: z.array(Id).max(MAX_CHECKED),
});

const ClientsHeldEnvelope = z.object({
  t: z.literal('clients-held'),
  from: Node,
  rid: Id,
  held: z.array(Id).max(MAX_CHECKED),
});

export const Envelope = z.discriminatedUnion('t', [
  AttachEnvelope,
  AttachResultEnvelope,
  DetachEnvelope,
  CallEnvelope,
  ReplyEnvelope,
  ExtensionNotifyEnvelope,
  EndedEnvelope,
  RetireEnvelope,
  CallsCheckEnvelope,
  CallsHeldEnvelope,
  ClientsCheckEnvelope,
  ClientsHeldEnvelope,
]);
export type Envelope = z.infer<typeof Envelope>;
export type AttachEnvelope = z.infer<typeof AttachEnvelope>;
export type CallsCheckEnvelope = z.infer<typeof CallsCheckEnvelope>;
export type ClientsCheckEnvelope = z.infer<typeof ClientsCheckEnvelope>;
