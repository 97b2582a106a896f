import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { LoginPage } from '../auth/login-page';
import { RequireSession } from '../auth/require-session';
import { AdminPage } from '../features/admin/admin-page';
import { ChartPage } from '../features/charts/chart-page';
import { ChartsPage } from '../features/charts/charts-page';
import { PlaceholderPage } from '../features/placeholders/placeholder-page';
import { NotFoundPage } from '../features/placeholders/not-found-page';
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
              <Route path="review" element={<PlaceholderPage page="review" />} />
              <Route path="items" element={<PlaceholderPage page="items" />} />
              <Route path="pool" element={<PlaceholderPage page="pool" />} />
              <Route path="runs" element={<PlaceholderPage page="runs" />} />
              <Route path="charts" element={<ChartsPage />} />
              <Route path="charts/:id" element={<ChartPage />} />
              <Route path="stats" element={<PlaceholderPage page="stats" />} />
              <Route path="evaluation" element={<PlaceholderPage page="evaluation" />} />
              <Route path="admin" element={<AdminPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
