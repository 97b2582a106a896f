import type { Router } from 'express';
import { chartGroupsApi } from '../../shared/api/chart-groups';
import type { AppContext } from '../app-context';
import { HttpError } from '../http/http-error';
import { apiRouter, handle } from '../http/handle';
import { addQuestion, createGroup, deleteGroup, updateGroup } from './chart-group-commands';
import { ChartGroupError, chartGroupDetail, listChartGroups } from './chart-group-service';

const CODE = { not_found: 'not_found', invalid: 'bad_request', conflict: 'conflict' } as const;

/** A domain refusal as the client's error, its field named as validation names body fields. */
function refusalsAsHttp<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof ChartGroupError)) throw error;
    throw new HttpError(CODE[error.reason], error.message, error.field === undefined ? undefined : `body.${error.field}`);
  }
}

export function chartGroupRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, chartGroupsApi.list, 'reviewer', ({ query }) => listChartGroups(ctx.db, query));
  handle(api, chartGroupsApi.get, 'reviewer', ({ params: { id } }) => refusalsAsHttp(() => chartGroupDetail(ctx.db, id)));
  handle(api, chartGroupsApi.create, 'curator', ({ body, user }) => refusalsAsHttp(() => ({ group: createGroup(ctx, body, user.id) })));
  handle(api, chartGroupsApi.update, 'curator', ({ params: { id }, body, user }) => refusalsAsHttp(() => ({ group: updateGroup(ctx, id, body, user.id) })));
  handle(api, chartGroupsApi.addQuestion, 'curator', ({ params: { id }, body, user }) => refusalsAsHttp(() => ({ question: addQuestion(ctx, id, body, user.id) })));
  handle(api, chartGroupsApi.remove, 'curator', ({ params: { id }, user }) => refusalsAsHttp(() => deleteGroup(ctx, id, user.id)));
  return api.router;
}
