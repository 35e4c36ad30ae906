/**
 * Every write to a user's presence hash is one of these scripts: each checks the record's owner and writes in the
 * same step, so no write of one instance can land between another's check and its write (issue 39 Q1).
 * Records are JSON; a script never re-encodes one (cjson prints numbers with 14 digits, an epoch has 16).
 */

/**
 * Writes a browser's record (KEYS: the user's hash, the node list, the node's user index; ARGV: extensionId, the
 * record's JSON without its epoch, mode, session, epoch, nodeId, userId), with the node's index and its place in the
 * node list, so no sweep can miss it.
 * - mode `new`, a session that just authenticated: it wins; its epoch is Redis's clock in µs, and always above the
 *   epoch it replaces.
 * - mode `again`, a node writing what it announced before (after an outage, or when a sweep took it): only over its
 *   own session's record, an older one, or none. A newer session of the browser elsewhere is never overwritten.
 * Returns {'ok', epoch, previous JSON or ''} or {'superseded', current JSON}.
 */
export const ANNOUNCE = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
local previous = nil
if current then
  local ok, decoded = pcall(cjson.decode, current)
  if ok and type(decoded) == 'table' then previous = decoded end
end
local previousEpoch = 0
if previous and type(previous.epoch) == 'number' then previousEpoch = previous.epoch end
local epoch = tonumber(ARGV[5])
if ARGV[3] == 'new' then
  local now = redis.call('TIME')
  epoch = math.max(tonumber(now[1]) * 1000000 + tonumber(now[2]), previousEpoch + 1)
elseif previous and previous.session ~= ARGV[4] and previousEpoch >= epoch then
  return {'superseded', current}
elseif epoch == 0 then
  epoch = previousEpoch + 1
end
local epochText = string.format('%.0f', epoch)
redis.call('HSET', KEYS[1], ARGV[1], string.sub(ARGV[2], 1, -2) .. ',"epoch":' .. epochText .. '}')
redis.call('SADD', KEYS[2], ARGV[6])
redis.call('SADD', KEYS[3], ARGV[7])
local replaced = ''
if previous and previous.session ~= ARGV[4] then replaced = current end
return {'ok', epochText, replaced}`;

/**
 * Removes records of one user's hash (KEYS[1]) only while the named session owns them (ARGV: extensionId, session,
 * extensionId, session…): a withdrawal, a removal queued while Redis was away, or a graceful exit. Returns how many.
 */
export const WITHDRAW = `
local removed = 0
for i = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if current then
    local ok, record = pcall(cjson.decode, current)
    if ok and type(record) == 'table' and record.session == ARGV[i + 1] then
      redis.call('HDEL', KEYS[1], ARGV[i])
      removed = removed + 1
    end
  end
end
return removed`;

/**
 * Removes records a listing found on dead nodes (KEYS[1] the hash, KEYS[i + 1] the heartbeat key of the i-th
 * record's node; ARGV: extensionId, session, …), each only while its node is still dead and the same session
 * still owns it: a browser that reconnected to a live node meanwhile keeps its new record.
 */
export const REMOVE_STALE = `
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('EXISTS', KEYS[(i + 1) / 2 + 1]) == 0 then
    local current = redis.call('HGET', KEYS[1], ARGV[i])
    if current then
      local ok, record = pcall(cjson.decode, current)
      if ok and type(record) == 'table' and record.session == ARGV[i + 1] then
        redis.call('HDEL', KEYS[1], ARGV[i])
        removed = removed + 1
      end
    end
  end
end
return removed`;

/**
 * Removes the fields of one user's hash whose record names the dead node (KEYS[1] the hash, KEYS[2] the node's
 * heartbeat key, ARGV[1] the node), unless the node came back meanwhile: a node that only stalled past its TTL
 * writes its heartbeat, then its records again, and no later step of a sweep may take them.
 */
export const REMOVE_NODE_RECORDS = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local fields = redis.call('HGETALL', KEYS[1])
local removed = 0
for i = 1, #fields, 2 do
  local ok, record = pcall(cjson.decode, fields[i + 1])
  if ok and type(record) == 'table' and record.nodeId == ARGV[1] then
    redis.call('HDEL', KEYS[1], fields[i])
    removed = removed + 1
  end
end
return removed`;

/**
 * Drops a dead node's index and its place in the node list (KEYS: heartbeat, index, list; ARGV[1] the node) and
 * returns the users it had announced for, whose records are removed next; nothing, if the node came back.
 */
export const FORGET_NODE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local users = redis.call('SMEMBERS', KEYS[2])
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return users`;
