import { request } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { loadConfig } from '../../server/config';
import { ConfigError } from '../../server/config-error';
import { ErrorBodySchema } from '../../shared/errors';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * DNS rebinding: a page under a name the attacker owns, re-pointed at this machine, is
 * same-origin with itself, so only the Host its browser sends gives it away. Every request and
 * socket naming a Host off the allow-list is refused; HQA_ALLOWED_HOSTS adds names to it.
 */

let server: TestServer;
let extended: TestServer;
let admin: TestClient;
let port: string;

beforeAll(async () => {
  [server, extended] = await Promise.all([
    startTestServer({ demo: false }),
    startTestServer({ demo: false, config: { allowedHosts: loadConfig({ HQA_ALLOWED_HOSTS: 'hqa.example.org, lab-box:8443' }).allowedHosts } }),
  ]);
  port = new URL(server.url).port;
  admin = new TestClient(server.url);
  await admin.login('admin', server.server.adminPassword ?? '');
});
afterAll(async () => {
  await Promise.all([server?.close(), extended?.close()]);
});

/** A raw request to `target` naming `host` (none at all when null), with the admin's cookie. */
function ask(target: TestServer, path: string, host: string | null): Promise<{ status: number; body: string }> {
  const { hostname: address, port: targetPort } = new URL(target.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port: targetPort, path, setHost: false, headers: { cookie: admin.cookie, ...(host === null ? {} : { host }) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A socket.io client naming `host`, with the admin's session: 'connected' or the refusal. */
function connectNaming(target: TestServer, host: string, transport: 'websocket'): Promise<string> {
  const socket = connectSocket(target.url, { extraHeaders: { cookie: admin.cookie, host }, transports: [transport], reconnection: false });
  return new Promise<string>((resolve) => {
    socket.on('connect', () => resolve('connected'));
    socket.on('connect_error', (error) => resolve(error.message));
  }).finally(() => socket.close());
}

const refusedAsBadHost = (res: { status: number; body: string }) => {
  expect(res.status).toBe(403);
  expect(ErrorBodySchema.parse(JSON.parse(res.body)).error).toMatchObject({ code: 'bad_host', field: 'headers.host', message: expect.stringMatching(/HQA_ALLOWED_HOSTS/) });
};

describe('requests naming a Host off the allow-list', () => {
  it.each(['/api/auth/me', '/api/health', '/', '/login', '/socket.io/?EIO=4&transport=polling'])('are refused: %s', async (path) => {
    const res = await ask(server, path, `rebound.attacker.example:${port}`);
    expect(res.status).toBe(403);
    if (!path.startsWith('/socket.io')) refusedAsBadHost(res);
  });
  it('are refused with a port-less name, one that only starts like a loopback address, and no Host at all', async () => {
    refusedAsBadHost(await ask(server, '/api/auth/me', 'rebound.attacker.example'));
    refusedAsBadHost(await ask(server, '/api/auth/me', `127.0.0.1.attacker.example:${port}`));
    // HTTP/1.1 without Host: Node answers 400 itself, before the app.
    expect((await ask(server, '/api/auth/me', null)).status).toBe(400);
  });
});

describe('requests naming this machine', () => {
  const ownAddresses = () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((entry) => entry.family === 'IPv4').map((entry) => entry.address));
  it('are answered by loopback names, the host name and every address of the machine, with or without a port, in any case', async () => {
    const names = ['127.0.0.1', 'localhost', 'LOCALHOST.', '[::1]', hostname(), ...ownAddresses()];
    for (const name of names) {
      for (const host of [`${name}:${port}`, name]) expect((await ask(server, '/api/auth/me', host)).status, host).toBe(200);
    }
    expect((await ask(server, '/socket.io/?EIO=4&transport=polling', `127.0.0.1:${port}`)).status).toBe(200);
  });
});

describe('the socket.io handshake', () => {
  // The client's polling transport sends the URL's Host whatever extraHeaders say; the raw polling handshake above is refused.
  it('is refused over a WebSocket naming another Host, and taken naming this one', async () => {
    expect(await connectNaming(server, `rebound.attacker.example:${port}`, 'websocket')).not.toBe('connected');
    expect(await connectNaming(server, `127.0.0.1:${port}`, 'websocket')).toBe('connected');
  });
});

describe('HQA_ALLOWED_HOSTS', () => {
  it('adds names to the defaults: a bare name on any port, a name with a port on that port only', async () => {
    const extendedPort = new URL(extended.url).port;
    const client = new TestClient(extended.url);
    await client.login('admin', extended.server.adminPassword ?? '');
    admin.cookie = client.cookie;
    try {
      for (const host of [`hqa.example.org:${extendedPort}`, 'hqa.example.org', 'lab-box:8443', `127.0.0.1:${extendedPort}`]) {
        expect((await ask(extended, '/api/auth/me', host)).status, host).toBe(200);
      }
      refusedAsBadHost(await ask(extended, '/api/auth/me', 'lab-box:8444'));
      refusedAsBadHost(await ask(extended, '/api/auth/me', `rebound.attacker.example:${extendedPort}`));
      expect(await connectNaming(extended, `hqa.example.org:${extendedPort}`, 'websocket')).toBe('connected');
      expect(await connectNaming(extended, `rebound.attacker.example:${extendedPort}`, 'websocket')).not.toBe('connected');
      // The first server was not told of the name.
      refusedAsBadHost(await ask(server, '/api/health', 'hqa.example.org'));
    } finally {
      await admin.login('admin', server.server.adminPassword ?? '');
    }
  });
  it('refuses an entry that is no host, naming it', () => {
    expect(() => loadConfig({ HQA_ALLOWED_HOSTS: 'hqa.example.org,https://hqa.example.org/' })).toThrow(ConfigError);
    expect(() => loadConfig({ HQA_ALLOWED_HOSTS: 'https://hqa.example.org/' })).toThrow('HQA_ALLOWED_HOSTS: "https://hqa.example.org/" is not a host name or address (host or host:port)');
  });
});
