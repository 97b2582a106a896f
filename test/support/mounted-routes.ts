import type { Express } from 'express';
import { mountedAccess, mountedEndpoint, type Access } from '../../server/http/handle';
import type { Endpoint } from '../../shared/api/endpoint';

/** A route in an express app's stack: its path, methods and last handler. */
export interface MountedRoute {
  path: string;
  methods: string[];
  handler: unknown;
}

/** The stack of an express 5 router: layers holding a route, or a nested router (its own stack). */
interface Layer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle?: { stack?: Layer[] };
}

export function routesOf(stack: Layer[]): MountedRoute[] {
  return stack.flatMap((layer): MountedRoute[] => {
    if (layer.route) {
      const { path, methods, stack: handlers } = layer.route;
      return [{ path, methods: Object.keys(methods).map((m) => m.toUpperCase()), handler: handlers.at(-1)?.handle }];
    }
    return layer.handle?.stack ? routesOf(layer.handle.stack) : [];
  });
}

/** Every route of an app, however deep its routers nest. */
export function appRoutes(app: Express): MountedRoute[] {
  return routesOf((app.router as unknown as { stack: Layer[] }).stack);
}

/** Every route an app mounted with `handle`: its descriptor and who may call it. */
export function handledRoutes(app: Express): { endpoint: Endpoint; access: Access }[] {
  return appRoutes(app).flatMap((route) => {
    const endpoint = mountedEndpoint(route.handler);
    const access = mountedAccess(route.handler);
    return endpoint && access ? [{ endpoint, access }] : [];
  });
}
