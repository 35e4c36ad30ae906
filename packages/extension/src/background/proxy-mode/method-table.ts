import {
  ErrorCode,
  isRemoteMethod,
  ProtocolError,
  type RemoteMethodName,
  RemoteMethods,
  type RemoteParsedParams,
  type RemoteResult,
  validate,
} from '@tabmcp/protocol';
import type { MethodRunner, RemoteCall } from './proxy-link';

type MethodHandler<M extends RemoteMethodName> = (
  params: RemoteParsedParams<M>,
  call: RemoteCall,
) => Promise<RemoteResult<M>>;
export type MethodHandlers = { [M in RemoteMethodName]: MethodHandler<M> };

/** Turns the handler table into the link's runner: unknown methods and bad params get JSON-RPC errors. */
export function methodRunner(handlers: MethodHandlers): MethodRunner {
  return async (method, params, call) => {
    if (!isRemoteMethod(method)) {
      throw new ProtocolError(
        ErrorCode.MethodNotFound,
        `Unknown method "${method}". This browser answers: ${Object.keys(RemoteMethods).join(', ')}.`,
      );
    }
    const parsed = validate(RemoteMethods[method].params, params ?? {}, `params of ${method}`);
    if (!parsed.ok) throw new ProtocolError(ErrorCode.InvalidParams, parsed.error.message);
    const handler = handlers[method] as (params: unknown, call: RemoteCall) => Promise<unknown>;
    return handler(parsed.value, call);
  };
}
