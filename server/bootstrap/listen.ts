import type { Server } from 'node:http';

/** The port the server was told to use is taken: the one start failure whose fix is a setting. */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    // HQA_PORT is the variable server/config.ts reads the port from.
    super(`port ${port} is in use; set HQA_PORT`);
    this.name = 'PortInUseError';
  }
}

/**
 * Listens on `port` (0 = any free port) and resolves once bound. A taken port rejects with
 * `PortInUseError`, every other failure with the error itself.
 */
export function listen(httpServer: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error);
    httpServer.once('error', onError);
    httpServer.listen(port, host, () => {
      httpServer.off('error', onError);
      resolve();
    });
  });
}
