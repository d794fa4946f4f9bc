import { useState } from 'react';
import { bankLineListQuery, bankLineStatusLabels, BANK_LINE_STATUSES, type BankLine } from '@edu/domain/bank-statements/bank-statement';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { EmptyList } from '../../../components/list-states';
import { useListParams } from '../../../components/use-list-params';
import { useBankLines } from '../api/get-bank-lines';
import { AssignLineModal } from '../components/assign-line-modal';
import { IgnoreLineModal } from '../components/ignore-line-modal';
import { lineColumns } from '../components/line-columns';
import { StatementUpload } from '../components/statement-upload';

const statusOptions = [...BANK_LINE_STATUSES.map((s) => ({ value: s, label: bankLineStatusLabels[s] })), { value: 'all', label: 'Все строки' }];

/**
 * /manager/bank-statements «Банковские выписки» (issue 33): upload a 1C statement, see what it did,
 * and sort the lines left «Разобрать вручную» (assign to entries or ignore with a reason).
 */
export function BankStatementsPage() {
  const params = useListParams(bankLineListQuery, { status: 'manual' });
  const list = useBankLines(params.query);
  const [assigning, setAssigning] = useState<BankLine | null>(null);
  const [ignoring, setIgnoring] = useState<BankLine | null>(null);
  const filters: FilterField[] = [
    { name: 'status', label: 'Состояние', kind: 'select', options: statusOptions },
    { name: 'q', label: 'Поиск', kind: 'text', placeholder: 'Плательщик, ИНН, назначение' },
  ];
  return (
    <ListPage
      title="Банковские выписки"
      filters={filters}
      params={params}
      list={list}
      columns={lineColumns(setAssigning, setIgnoring)}
      fixed
      testId="bank-lines"
      itemTestId="bank-line"
      minWidth={900}
      defaultSort="-created_at"
      empty={params.values.status === 'manual' ? <EmptyList text="Разбирать нечего: все платежи из выписок отнесены к заявкам" /> : undefined}
      above={<StatementUpload />}
    >
      <AssignLineModal line={assigning} onClose={() => setAssigning(null)} />
      <IgnoreLineModal line={ignoring} onClose={() => setIgnoring(null)} />
    </ListPage>
  );
}
