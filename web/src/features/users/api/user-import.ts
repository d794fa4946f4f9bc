import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { userImportAnswer, UserImportState } from '@edu/domain/users/user-import';
import { api } from '../../../lib/api-client';
import { downloadPrivateFile } from '../../../lib/private-file';

type Answer = z.output<typeof userImportAnswer>;

/** POST /api/manager/user-imports[?dry_run=1]: starts the dry run (the preview) or the import of a file. */
export function startUserImport(file: File, dryRun: boolean): Promise<Answer> {
  const form = new FormData();
  form.append('file', file);
  return api.post<Answer>(`/api/manager/user-imports${dryRun ? '?dry_run=1' : ''}`, form);
}

export function useStartUserImport() {
  return useMutation({ mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => startUserImport(file, dryRun) });
}

/** GET /api/manager/user-imports/{id}, asked again every half second while the import runs. */
export function useUserImport(id: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['manager-users', 'import', id],
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const state = (await api.get<Answer>(`/api/manager/user-imports/${id}`, { signal })).data;
      // A finished import changed the people: the users list reads them again.
      if (state.status === 'done' && !state.dry_run) void client.invalidateQueries({ queryKey: ['manager-users', 'list'] });
      return state;
    },
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 500 : false),
  });
}

/** GET /api/manager/user-imports/{id}/report: every row's outcome as .xlsx. */
export function downloadImportReport(state: UserImportState): Promise<void> {
  return downloadPrivateFile(`/api/manager/user-imports/${state.id}/report`, `Импорт ${state.file_name}.xlsx`);
}
