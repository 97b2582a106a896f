import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { appObjects } from './app-objects';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** An express app on a server whose request and response objects are made by appObjects. */
async function serve(name: string): Promise<string> {
  const objects = appObjects();
  const app = express();
  objects.adopt(app);
  app.get('/who', (req, res) => {
    // express's request and response methods are there, and `app` is this server's.
    res.status(200).json({ name, ownApp: req.app === app && res.app === app, query: req.query, ip: typeof req.ip, params: req.params });
  });
  const server = createServer({ IncomingMessage: objects.Request, ServerResponse: objects.Response }, app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('appObjects', () => {
  it("builds requests and responses that are express's from birth, each server's with its own app", async () => {
    const [first, second] = await Promise.all([serve('first'), serve('second')]);
    const ask = async (url: string) => (await fetch(`${url}/who?x=1`)).json() as Promise<unknown>;
    expect(await ask(first)).toEqual({ name: 'first', ownApp: true, query: { x: '1' }, ip: 'string', params: {} });
    expect(await ask(second)).toEqual({ name: 'second', ownApp: true, query: { x: '1' }, ip: 'string', params: {} });
  });
});
