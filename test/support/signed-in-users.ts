import type { Role } from '../../shared/domain/roles';
import { authApi } from '../../shared/api/auth';
import { TestClient } from './http-client';
import type { TestServer } from './test-server';

export interface SignedInUser {
  id: number;
  username: string;
  password: string;
  client: TestClient;
}

/** A new client of `server` logged in as `username`. */
export async function signedIn(server: TestServer, username: string, password: string): Promise<TestClient> {
  const client = new TestClient(server.url);
  await client.login(username, password);
  return client;
}

/** Makes fresh users of a server, each signed in once: tests that end sessions never share one. */
export class SignedInUsers {
  private made = 0;
  constructor(private readonly server: TestServer) {}

  async create(role: Role): Promise<SignedInUser> {
    const username = `${role}-${++this.made}`;
    const password = `${username}-password`;
    await this.server.createUser(username, role, password);
    const client = await signedIn(this.server, username, password);
    const { user } = await client.call(authApi.me);
    return { id: user.id, username, password, client };
  }
}
