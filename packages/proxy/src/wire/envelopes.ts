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

export const Envelope = z.discriminatedUnion('t', [
  AttachEnvelope,
  AttachResultEnvelope,
  DetachEnvelope,
  CallEnvelope,
  ReplyEnvelope,
  ExtensionNotifyEnvelope,
  EndedEnvelope,
]);
export type Envelope = z.infer<typeof Envelope>;
export type AttachEnvelope = z.infer<typeof AttachEnvelope>;
