import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { ServiceFormMessages } from '@edu/domain/services/service-form';
import { ApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { ServiceFormModal, type ServiceFormModalProps } from './service-form-modal';

// The calls of the form, replaced: the test checks what the form sends and shows, not the server.
const saveService = vi.fn();
vi.mock('../api/manage-service', () => ({
  useSaveService: () => ({ mutateAsync: saveService, isPending: false }),
  useUploadServiceImage: () => ({ mutateAsync: vi.fn(), isPending: false }),
  usePublishService: () => ({ mutateAsync: vi.fn(), isPending: false }),
}));
vi.mock('../../../lib/notify', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn() }));
// tiptap is not what is tested here: a plain text box stands in for the rich-text editor.
vi.mock('../../../components/rich-text-editor', () => ({
  RichTextEditor: ({ ariaLabel, value, onChange, error }: { ariaLabel: string; value: string; onChange: (v: string) => void; error?: string }) => (
    <div>
      <textarea aria-label={ariaLabel} value={value} onChange={(e) => onChange(e.currentTarget.value)} aria-invalid={error ? true : undefined} />
      {error && <p>{error}</p>}
    </div>
  ),
}));

beforeEach(() => {
  // jsdom lays nothing out: every element counts as shown, so the first invalid field can take the focus.
  vi.spyOn(Element.prototype, 'getClientRects').mockReturnValue([{}] as unknown as DOMRectList);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

const props: ServiceFormModalProps = {
  opened: true,
  service: null,
  typeId: 1,
  subtypeId: null,
  types: [{ id: 1, fdv: 'Вебинары', points: 2, color: null, icon: null, is_publication: false }],
  subtypes: [],
  profiles: [],
  options: { templates: { certificate: [], program: [], regList: [], page: [] }, leadings: [], cms: false },
  onClose: vi.fn(),
};

function renderForm(overrides: Partial<ServiceFormModalProps> = {}) {
  return render(
    <MantineProvider env="test">
      <ServiceFormModal {...props} {...overrides} />
    </MantineProvider>,
  );
}

// By label, not by role: role queries over a 30-field form take seconds in jsdom.
const field = (label: string) => screen.getByLabelText<HTMLInputElement>(new RegExp(`^${label}`));
const button = (text: string) => screen.getByText(text).closest('button')!;
const press = async (text: string) => {
  await act(async () => {
    fireEvent.click(button(text));
    await Promise.resolve();
  });
};

// Generous: a 30-field Mantine form renders slowly in jsdom on a busy machine.
describe('the service form', { timeout: 60_000 }, () => {
  it('checks an empty new service with the domain schema: the messages under the fields, the first one focused, nothing sent', async () => {
    renderForm();
    expect(field('Название').getAttribute('aria-invalid')).toBeNull();
    await press('Сохранить');
    expect(await screen.findByText('Обязательное поле')).toBeTruthy();
    expect(field('Название').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(ServiceFormMessages.startRequired)).toBeTruthy();
    expect(field('Дата начала').getAttribute('aria-invalid')).toBe('true');
    expect(notifyError).toHaveBeenCalledWith(Messages.required);
    expect(saveService).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(field('Название')));
    // The messages stay until the next submit.
    fireEvent.change(field('Название'), { target: { value: 'Вебинар' } });
    expect(screen.getByText('Обязательное поле')).toBeTruthy();
  });

  it('a title over 100 characters is said at once and cannot be saved', () => {
    renderForm();
    fireEvent.change(field('Название'), { target: { value: 'а'.repeat(101) } });
    expect(screen.getByText(ServiceFormMessages.titleMax)).toBeTruthy();
    expect(screen.getByText('101 / 100')).toBeTruthy();
    expect(button('Сохранить').disabled).toBe(true);
  });

  it('sends the body the server expects; its 422 field errors go under the fields', async () => {
    saveService.mockRejectedValueOnce(
      new ApiError(422, 'Номер курса не найден', { moodle_id: ['Номер курса не найден'], description: ['Слишком длинное описание'] }),
    );
    renderForm();
    fireEvent.change(field('Название'), { target: { value: 'Вебинар о чтении' } });
    fireEvent.change(field('Дата начала'), { target: { value: '2030-03-10' } });
    // The end follows the start: the same day, an hour and a half later.
    expect(field('Дата окончания').value).toBe('2030-03-10');
    fireEvent.change(field('Номер курса в Moodle'), { target: { value: '77' } });
    fireEvent.change(field('Новая секция'), { target: { value: 'Секция для учителей' } });
    fireEvent.click(button('Добавить секцию'));
    expect(field('Секция 1').value).toBe('Секция для учителей');
    await press('Сохранить');

    expect(saveService).toHaveBeenCalledTimes(1);
    expect(saveService.mock.calls[0]?.[0]).toEqual({
      id: null,
      body: expect.objectContaining({
        title: 'Вебинар о чтении',
        dict_type_id: 1,
        dict_subtype_id: null,
        points: 2,
        participation_type: 1,
        date_type: 1,
        begda: '2030-03-10 10:00:00',
        endda: '2030-03-10 11:30:00',
        moodle_id: 77,
        sections: [{ title: 'Секция для учителей' }],
        is_visible: true,
      }),
    });
    expect(await screen.findByText('Номер курса не найден')).toBeTruthy();
    expect(field('Номер курса в Moodle').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Слишком длинное описание')).toBeTruthy();
    expect(notifyError).toHaveBeenCalledWith('Номер курса не найден');
    expect(props.onClose).not.toHaveBeenCalled();
  });
});
