import { io as connectSocket, type Socket } from 'socket.io-client';
import type { ServerToClientEvents } from '../../shared/events';
import type { TestClient } from './http-client';

/**
 * Real socket.io clients for a test file, opened with a TestClient's session cookie and never
 * reconnecting by themselves (a test sees each close). Call `closeAll` in `afterEach`.
 */
export class TestSockets {
  private readonly open: Socket[] = [];
  constructor(private readonly baseUrl: string) {}

  /** A connected socket of `client`'s session; rejects with the server's refusal. */
  async connect(client: TestClient): Promise<Socket<ServerToClientEvents>> {
    const socket: Socket<ServerToClientEvents> = connectSocket(this.baseUrl, {
      extraHeaders: { cookie: client.cookie },
      transports: ['websocket'],
      reconnection: false,
    });
    this.open.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  /** Opening a socket with this client's cookie: 'connected', or the refusal's message. */
  async outcome(client: TestClient): Promise<string> {
    try {
      await this.connect(client);
      return 'connected';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  closeAll(): void {
    for (const socket of this.open.splice(0)) socket.close();
  }
}

/** Resolves with the reason when the socket is closed; rejects when it is still open after `withinMs`. */
export function socketClosed(socket: Socket, withinMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`socket still open after ${withinMs} ms`)), withinMs);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}
