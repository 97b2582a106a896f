import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, useEffect, useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LoginPage } from '../auth/login-page';
import { RequireSession } from '../auth/require-session';
import { NotFoundPage } from '../features/placeholders/not-found-page';
import { AppFrame } from './app-frame';
import { Landing } from './landing';
import { preloadPagesOnce } from './preload-pages';
import { createQueryClient } from './query-client';

// One chunk per page: the first screen loads only what it shows; the others are fetched once
// the browser is idle, so opening a page later is still instant.
const pages = {
  AdjudicationPage: () => import('../features/adjudication/adjudication-page'),
  AdminPage: () => import('../features/admin/admin-page'),
  AuditPage: () => import('../features/audit/audit-page'),
  ChartPage: () => import('../features/charts/chart-page'),
  ChartsPage: () => import('../features/charts/charts-page'),
  ChartGroupPage: () => import('../features/charts/chart-group-page'),
  ChartGroupsPage: () => import('../features/charts/chart-groups-page'),
  ChartTypeTriagePage: () => import('../features/chart-types/chart-type-triage-page'),
  ItemPage: () => import('../features/items/item-page'),
  ItemsPage: () => import('../features/items/items-page'),
  OverviewPage: () => import('../features/overview/overview-page'),
  EvalRunPage: () => import('../features/evaluation/eval-run-page'),
  EvaluationPage: () => import('../features/evaluation/evaluation-page'),
  PoolAnalyticsPage: () => import('../features/pool/analytics/pool-analytics-page'),
  PoolPage: () => import('../features/pool/pool-page'),
  ProposalPage: () => import('../features/pool/proposal-page'),
  ReviewPage: () => import('../features/review/review-page'),
  RunPage: () => import('../features/runs/run-page'),
  RunsPage: () => import('../features/runs/runs-page'),
  SplitsPage: () => import('../features/imports/splits-page'),
  StatsPage: () => import('../features/stats/stats-page'),
};
const AdjudicationPage = lazy(() => pages.AdjudicationPage().then((m) => ({ default: m.AdjudicationPage })));
const AdminPage = lazy(() => pages.AdminPage().then((m) => ({ default: m.AdminPage })));
const AuditPage = lazy(() => pages.AuditPage().then((m) => ({ default: m.AuditPage })));
const ChartPage = lazy(() => pages.ChartPage().then((m) => ({ default: m.ChartPage })));
const ChartsPage = lazy(() => pages.ChartsPage().then((m) => ({ default: m.ChartsPage })));
const ChartGroupPage = lazy(() => pages.ChartGroupPage().then((m) => ({ default: m.ChartGroupPage })));
const ChartGroupsPage = lazy(() => pages.ChartGroupsPage().then((m) => ({ default: m.ChartGroupsPage })));
const ChartTypeTriagePage = lazy(() => pages.ChartTypeTriagePage().then((m) => ({ default: m.ChartTypeTriagePage })));
const ItemPage = lazy(() => pages.ItemPage().then((m) => ({ default: m.ItemPage })));
const ItemsPage = lazy(() => pages.ItemsPage().then((m) => ({ default: m.ItemsPage })));
const OverviewPage = lazy(() => pages.OverviewPage().then((m) => ({ default: m.OverviewPage })));
const EvalRunPage = lazy(() => pages.EvalRunPage().then((m) => ({ default: m.EvalRunPage })));
const EvaluationPage = lazy(() => pages.EvaluationPage().then((m) => ({ default: m.EvaluationPage })));
const PoolAnalyticsPage = lazy(() => pages.PoolAnalyticsPage().then((m) => ({ default: m.PoolAnalyticsPage })));
const PoolPage = lazy(() => pages.PoolPage().then((m) => ({ default: m.PoolPage })));
const ProposalPage = lazy(() => pages.ProposalPage().then((m) => ({ default: m.ProposalPage })));
const ReviewPage = lazy(() => pages.ReviewPage().then((m) => ({ default: m.ReviewPage })));
const RunPage = lazy(() => pages.RunPage().then((m) => ({ default: m.RunPage })));
const RunsPage = lazy(() => pages.RunsPage().then((m) => ({ default: m.RunsPage })));
const SplitsPage = lazy(() => pages.SplitsPage().then((m) => ({ default: m.SplitsPage })));
const StatsPage = lazy(() => pages.StatsPage().then((m) => ({ default: m.StatsPage })));

/** After the first screen has what it needs. */
const PRELOAD_DELAY_MS = 500;

/** Fetches every page's chunk in the background (they are cached; lazy() then resolves at once). */
function preloadPages(): void {
  // This module's URL carries the build's hash.
  preloadPagesOnce(Object.values(pages), () => window.sessionStorage, import.meta.url);
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => {
    const timer = setTimeout(preloadPages, PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route element={<RequireSession />}>
            <Route element={<AppFrame />}>
              <Route index element={<Landing />} />
              <Route path="overview" element={<OverviewPage />} />
              <Route path="review" element={<ReviewPage />} />
              <Route path="adjudication" element={<AdjudicationPage />} />
              <Route path="items" element={<ItemsPage />} />
              <Route path="items/:id" element={<ItemPage />} />
              <Route path="pool" element={<PoolPage />} />
              <Route path="pool/analytics" element={<PoolAnalyticsPage />} />
              <Route path="pool/:id" element={<ProposalPage />} />
              <Route path="runs" element={<RunsPage />} />
              <Route path="runs/:id" element={<RunPage />} />
              <Route path="charts" element={<ChartsPage />} />
              <Route path="charts/groups" element={<ChartGroupsPage />} />
              <Route path="charts/groups/:id" element={<ChartGroupPage />} />
              <Route path="charts/types" element={<ChartTypeTriagePage />} />
              <Route path="splits" element={<SplitsPage />} />
              <Route path="charts/:id" element={<ChartPage />} />
              <Route path="stats" element={<StatsPage />} />
              <Route path="evaluation" element={<EvaluationPage />} />
              <Route path="evaluation/runs/:id" element={<EvalRunPage />} />
              <Route path="admin" element={<AdminPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
