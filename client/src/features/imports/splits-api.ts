import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ImportUploadResultSchema, splitsApi, type ImportProgress, type ImportUploadResult, type SplitUpdate } from '@shared/api/splits';
import type { ImportFormat } from '@shared/domain/benchmark-fields';
import { ErrorBodySchema } from '@shared/errors';
import { endpointUrl } from '@shared/api/endpoint';
import { ApiError, call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export function useSplits() {
  return useQuery({ queryKey: queryKeys.splits(), queryFn: () => call(splitsApi.list) });
}

export function useUpdateSplit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, update }: { name: string; update: SplitUpdate }) => call(splitsApi.update, { params: { name }, body: update }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.splits() }),
  });
}

export function useDeleteSplit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(splitsApi.remove, { params: { name } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.splits() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.overview() });
    },
  });
}

/** The latest `import.progress` of one upload, as the socket wrote it into the cache. */
export function useImportProgress(uploadId: string | null): ImportProgress | null {
  const { data } = useQuery<ImportProgress>({ queryKey: queryKeys.importProgress(uploadId ?? ''), queryFn: skipToken, staleTime: Infinity, enabled: uploadId !== null });
  return uploadId === null ? null : (data ?? null);
}

export interface UploadInput {
  file: File;
  format: ImportFormat | undefined;
  split: string | undefined;
  uploadId: string;
}

/**
 * The zip itself is the body (application/zip), not JSON: `call` cannot send it, so this
 * fetches the descriptor's URL and reads the answer with the same schemas.
 */
async function uploadZip({ file, format, split, uploadId }: UploadInput): Promise<ImportUploadResult> {
  const url = endpointUrl(splitsApi.upload, { query: { format, split, filename: file.name, upload_id: uploadId } });
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json', 'Content-Type': 'application/zip' }, body: file });
  } catch {
    throw new ApiError(0, 'internal', 'Could not reach the server. Check your connection and try again.');
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ErrorBodySchema.safeParse(json);
    if (parsed.success) throw new ApiError(response.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.field);
    throw new ApiError(response.status, 'internal', response.statusText || `Upload failed with status ${response.status}`);
  }
  return ImportUploadResultSchema.parse(json);
}

export function useUploadSplit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadZip,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.splits() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.charts.all() });
    },
  });
}
