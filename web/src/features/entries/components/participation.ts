import { participationProblem } from '@edu/domain/entries/entry';
import { payTypeLabels, type PayTypeCode, extramuralLabels } from '@edu/domain/common/codes';
import { USER_PAY_TYPES } from '@edu/domain/entries/entry';

/** Очно / Дистанционно, the one the service does not allow disabled. */
export function participationOptions(participationType: number) {
  return [
    { value: '0', label: extramuralLabels[0], disabled: participationProblem(participationType, 0) !== null },
    { value: '1', label: extramuralLabels[1], disabled: participationProblem(participationType, 1) !== null },
  ];
}

/** Банк, Офис, Онлайн: users cannot pick 'Другое'. */
export const payTypeOptions = USER_PAY_TYPES.map((code) => ({ value: String(code), label: payTypeLabels[code as PayTypeCode] }));
