import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Response } from 'playwright-core';
import { waitFor } from '../../support/wait-for';

/** The forms the forging page holds, each posting to the workbench into a hidden frame. */
export type ForgedForm = 'text-plain-logout' | 'urlencoded-logout' | 'text-plain-create-user' | 'urlencoded-export';

/** What a WebSocket opened by the forging page saw before it closed. */
export interface SocketAttempt {
  opened: boolean;
  messages: string[];
}

function forgingHtml(workbench: string): string {
  // A text/plain form sends `name=value`: this name and value make the body valid JSON.
  const jsonName = (fields: Record<string, string>) => JSON.stringify({ ...fields, pad: '' }).slice(0, -2);
  const user = jsonName({ username: 'forged', role: 'admin', password: 'forged-pass-1' }).replace(/'/g, '&#39;');
  return `<!doctype html><html><head><title>Somewhere else</title></head><body>
<iframe name="sink-1" title="sink-1"></iframe><iframe name="sink-2" title="sink-2"></iframe><iframe name="sink-3" title="sink-3"></iframe><iframe name="sink-4" title="sink-4"></iframe>
<form id="text-plain-logout" method="post" enctype="text/plain" target="sink-1" action="${workbench}/api/auth/logout"><input name="x" value="1"></form>
<form id="urlencoded-logout" method="post" target="sink-2" action="${workbench}/api/auth/logout"><input name="x" value="1"></form>
<form id="urlencoded-export" method="post" target="sink-4" action="${workbench}/api/export"><input name="format" value="jsonl"></form>
<form id="text-plain-create-user" method="post" enctype="text/plain" target="sink-3" action="${workbench}/api/users"><input name='${user}' value='"}'></form>
</body></html>`;
}

/**
 * A second HTTP server on another port of 127.0.0.1 — same site as the workbench, another
 * origin — serving a page that forges requests to the workbench with its visitor's cookies.
 */
export class ForgingSite {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly workbench: string,
  ) {}

  static async start(workbench: string): Promise<ForgingSite> {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(forgingHtml(workbench)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new ForgingSite(server, `http://127.0.0.1:${port}`, workbench);
  }

  async open(page: Page): Promise<void> {
    await page.goto(this.url);
  }

  /**
   * Submits one form and waits for the workbench's answer in its own hidden frame (one frame
   * per form, so one navigation never cancels another's). The wait is generous: on a loaded
   * two-core CI machine a frame navigation has taken over 10 s to report.
   */
  async submit(page: Page, form: ForgedForm): Promise<Response> {
    const answered = page.waitForResponse((r) => r.url().startsWith(this.workbench) && r.request().method() === 'POST', { timeout: 45_000 });
    await page.locator(`#${form}`).evaluate((element) => (element as HTMLFormElement).submit());
    return answered;
  }

  /**
   * Loads `path` of the workbench as an image, as any page may (another port of the same host
   * is same-site: the visitor's session cookie rides along), and waits until the image loads or
   * fails: the server has answered by then, though the browser may keep the answer from this page.
   */
  async loadImage(page: Page, path: string): Promise<string> {
    const url = `${this.workbench}${path}`;
    return page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const image = document.createElement('img');
          image.onload = () => resolve('loaded');
          image.onerror = () => resolve('failed');
          image.src = src;
          document.body.append(image);
        }),
      url,
    );
  }

  /**
   * Sets a cookie from this page with `document.cookie` (e.g. `hqa_session=junk; path=/api`):
   * cookies ignore ports, so the workbench's pages on this host get it too. Returns once the
   * browser's cookie store holds it: the page hands `document.cookie` to Chromium's network
   * service on its own channel, so the context's `cookies()` may not show it yet when the
   * assignment returns (CI read the store without it once).
   */
  async plantCookie(page: Page, cookie: string): Promise<void> {
    const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice('path='.length) ?? '/';
    await page.evaluate((planted) => {
      document.cookie = planted;
    }, cookie);
    await waitFor(`cookie ${name} on ${path} in the browser's store`, () => page.context().cookies(), (held) =>
      held.some((c) => c.name === name && c.path === path && c.value === value),
    );
  }

  /** Opens a raw socket.io WebSocket to the workbench, asks to join its namespace, and reports what came back. */
  async openSocket(page: Page, waitMs: number): Promise<SocketAttempt> {
    const url = `${this.workbench.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    return page.evaluate(
      ({ url, waitMs }) =>
        new Promise<SocketAttempt>((resolve) => {
          const attempt: SocketAttempt = { opened: false, messages: [] };
          const socket = new WebSocket(url);
          const done = () => resolve(attempt);
          socket.onopen = () => (attempt.opened = true);
          socket.onmessage = (event) => {
            const data = String(event.data);
            attempt.messages.push(data);
            // engine.io's open packet: then ask socket.io for the default namespace, as its client does.
            if (data.startsWith('0{')) socket.send('40');
          };
          socket.onclose = done;
          // A fixed window, ended early by a close: a refusal may be silence rather than a close,
          // and only time shows that nothing came back.
          setTimeout(() => {
            socket.close();
            done();
          }, waitMs);
        }),
      { url, waitMs },
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
