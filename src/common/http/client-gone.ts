import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';

/**
 * A signal aborted when the client closes its connection before the response is sent (a response
 * that finished closes too, and aborts nothing): long work the client waits for stops then.
 */
export function clientGoneSignal(response: Response): AbortSignal {
  const controller = new AbortController();
  if (response.destroyed || response.req.socket.destroyed) controller.abort();
  else
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
  return controller.signal;
}

/** Handler parameter: the request's `clientGoneSignal`. */
export const ClientGone = createParamDecorator((_data: unknown, context: ExecutionContext): AbortSignal =>
  clientGoneSignal(context.switchToHttp().getResponse<Response>()),
);
