import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { printBatchStartedAnswer, printBatchAnswer } from '@edu/domain/documents/print-answers';
import type { servicesAnswer } from '@edu/domain/services/service';
import { api } from '../../../lib/api-client';

export interface PrintBatch {
  id: number;
  service_id: number;
  /** 1 queued, 2 running, 3 done, 4 failed. */
  status: number;
  total: number;
  done: number;
  skipped: number;
  error: string | null;
  url: string | null;
}

/** POST /api/service/{id}/print-certificates: starts the job. */
export function useStartPrintBatch() {
  return useMutation({
    mutationFn: (serviceId: number) => api.post<z.output<typeof printBatchStartedAnswer>>(`/api/service/${serviceId}/print-certificates`),
  });
}

/** GET /api/print-batch/{id}, polled every second until the zip is ready or the job failed. */
export function usePrintBatch(id: number | null) {
  return useQuery({
    queryKey: ['print-batch', id],
    queryFn: () => api.get<z.output<typeof printBatchAnswer>>(`/api/print-batch/${id}`).then((r) => r.data),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status >= 3 ? false : 1000),
  });
}

export interface ServiceOption {
  id: number;
  title: string;
}

/** GET /api/service?title=: services to choose from (operators see hidden ones too). */
export function useServiceOptions(title: string) {
  return useQuery({
    queryKey: ['print-batch', 'services', title],
    queryFn: () => api.get<z.output<typeof servicesAnswer>>('/api/service', { query: { title: title || undefined, per_page: 30 } }).then((r) => r.data),
  });
}
