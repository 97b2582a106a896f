import type { Router } from 'express';
import { chartGroupsApi } from '../../shared/api/chart-groups';
import type { AppContext } from '../app-context';
import { apiRouter, handle } from '../http/handle';
import { addQuestion, createGroup, deleteGroup, updateGroup } from './chart-group-commands';
import { chartGroupDetail, listChartGroups } from './chart-group-service';

export function chartGroupRoutes(ctx: AppContext): Router {
  const api = apiRouter(ctx.db);
  handle(api, chartGroupsApi.list, 'reviewer', ({ query }) => listChartGroups(ctx.db, query));
  handle(api, chartGroupsApi.get, 'reviewer', ({ params: { id } }) => chartGroupDetail(ctx.db, id));
  handle(api, chartGroupsApi.create, 'curator', ({ body, user }) => ({ group: createGroup(ctx, body, user.id) }));
  handle(api, chartGroupsApi.update, 'curator', ({ params: { id }, body, user }) => ({ group: updateGroup(ctx, id, body, user.id) }));
  handle(api, chartGroupsApi.addQuestion, 'curator', ({ params: { id }, body, user }) => ({ question: addQuestion(ctx, id, body, user.id) }));
  handle(api, chartGroupsApi.remove, 'curator', ({ params: { id }, user }) => deleteGroup(ctx, id, user.id));
  return api.router;
}
