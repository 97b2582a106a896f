import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { LoginPage } from '../auth/login-page';
import { RequireSession } from '../auth/require-session';
import { AdjudicationPage } from '../features/adjudication/adjudication-page';
import { AdminPage } from '../features/admin/admin-page';
import { ChartPage } from '../features/charts/chart-page';
import { ChartsPage } from '../features/charts/charts-page';
import { ItemPage } from '../features/items/item-page';
import { ItemsPage } from '../features/items/items-page';
import { EvalRunPage } from '../features/evaluation/eval-run-page';
import { EvaluationPage } from '../features/evaluation/evaluation-page';
import { NotFoundPage } from '../features/placeholders/not-found-page';
import { PoolAnalyticsPage } from '../features/pool/analytics/pool-analytics-page';
import { PoolPage } from '../features/pool/pool-page';
import { ProposalPage } from '../features/pool/proposal-page';
import { ReviewPage } from '../features/review/review-page';
import { RunPage } from '../features/runs/run-page';
import { RunsPage } from '../features/runs/runs-page';
import { StatsPage } from '../features/stats/stats-page';
import { AppFrame } from './app-frame';
import { createQueryClient } from './query-client';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route element={<RequireSession />}>
            <Route element={<AppFrame />}>
              <Route index element={<Navigate to="/charts" replace />} />
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
              <Route path="charts/:id" element={<ChartPage />} />
              <Route path="stats" element={<StatsPage />} />
              <Route path="evaluation" element={<EvaluationPage />} />
              <Route path="evaluation/runs/:id" element={<EvalRunPage />} />
              <Route path="admin" element={<AdminPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
