import { useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, NumberInput, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck, IconCircleX, IconClock, IconRefresh } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import { PaymentMessages, publicPayBody } from '@edu/domain/payments/payment';
import { PhoneInput } from '../../../components/phone-input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { usePayIndependently } from '../api/pay-independently';
import { usePublicPayment } from '../api/refresh-public-payment';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

interface PayValues {
  fio: string;
  phone: string;
  sum: number | string;
}

/** /pay 'Оплата' (spec 03 §2, §5): anyone pays a free-form sum, no login. */
export function PayPage() {
  useDocumentTitle('Оплата');
  const [params] = useSearchParams();
  const paid = params.get('paid');
  return paid ? <PaidResult id={paid} /> : <PayForm />;
}

/** Which fields are still empty (a phone with only the +7 of the mask is empty). */
function missingFields(values: PayValues) {
  return {
    fio: values.fio.trim() === '',
    phone: values.phone.replace(/\D/g, '').length <= 1,
    sum: values.sum === '' || values.sum === null || values.sum === undefined,
  };
}

/** A random UUID v4, also where crypto.randomUUID is missing (plain http on a LAN address). */
function newFormKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function PayForm() {
  const pay = usePayIndependently();
  const [incomplete, setIncomplete] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const form = useForm<PayValues>({ mode: 'controlled', initialValues: { fio: '', phone: '', sum: '' } });
  // One idempotence key per submitted form: a repeated submit of the same data (a double click, a
  // retry after a lost answer) continues the same payment; changed data is a new payment.
  const [formKey, setFormKey] = useState<{ data: string; key: string } | null>(null);

  async function submit(values: PayValues) {
    const missing = missingFields(values);
    if (missing.fio || missing.phone || missing.sum) {
      setIncomplete(true);
      form.setErrors({ fio: missing.fio || null, phone: missing.phone || null, sum: missing.sum || null });
      focusFirstInvalid();
      return;
    }
    setIncomplete(false);
    // The server's rules, shown before the request (a short phone, a sum below 1 ₽ and so on).
    const parsed = publicPayBody.safeParse(values);
    if (!parsed.success) {
      form.setErrors(firstErrors(fieldErrorsFromZod(parsed.error)));
      focusFirstInvalid();
      return;
    }
    form.clearErrors();
    try {
      const data = JSON.stringify(parsed.data);
      const key = formKey?.data === data ? formKey.key : newFormKey();
      setFormKey({ data, key });
      // The sum goes as its decimal text: the server reads it into kopecks itself.
      const answer = await pay.mutateAsync({ fio: parsed.data.fio, phone: parsed.data.phone, sum: String(values.sum), key });
      const url = answer?.confirmation?.confirmation_url;
      if (!url) {
        notifyError(PaymentMessages.failed);
        return;
      }
      setLeaving(true);
      window.location.assign(url);
    } catch (error) {
      if (isApiError(error) && error.status === 422 && error.errors && Object.keys(error.errors).length > 0 && !error.errors.key) {
        notifyError(PaymentMessages.fillAll);
        form.setErrors(firstErrors(error.errors));
        focusFirstInvalid();
      } else {
        notifyError(errorMessage(error));
      }
    }
  }

  // After an incomplete submit the banner stays while a field is still empty; a field typed into loses its red frame.
  const stillMissing = Object.values(missingFields(form.values)).some(Boolean);
  const clearOnType = (field: keyof PayValues) => {
    const props = form.getInputProps(field);
    return {
      ...props,
      onChange: (value: unknown) => {
        props.onChange(value);
        if (form.errors[field]) form.setFieldError(field, null);
      },
    };
  };

  return (
    <Stack maw={440} mx="auto" gap="lg">
      <Paper p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm">
        <form onSubmit={form.onSubmit(submit, () => focusFirstInvalid())} noValidate aria-label="Оплата">
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                Оплата
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Оплата услуг учебного центра банковской картой
              </Text>
            </div>

            {incomplete && stillMissing && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" data-testid="pay-incomplete">
                <Text size="sm">{PaymentMessages.fillAllBanner}</Text>
              </Alert>
            )}

            <TextInput label="ФИО" placeholder="Иванов Иван Иванович" autoComplete="name" {...clearOnType('fio')} />
            <PhoneInput label="Телефон" {...clearOnType('phone')} />
            <NumberInput
              label="Сумма"
              placeholder="1 500"
              rightSection={
                <Text c="dimmed" size="sm">
                  ₽
                </Text>
              }
              hideControls
              allowNegative={false}
              decimalScale={2}
              decimalSeparator=","
              thousandSeparator=" "
              inputMode="decimal"
              {...clearOnType('sum')}
            />

            <Button type="submit" size="md" fullWidth loading={pay.isPending || leaving}>
              Оплатить
            </Button>

            <Group justify="center" gap="lg">
              <Anchor component={Link} to="/register" size="sm" fw={600}>
                Регистрация
              </Anchor>
              <Anchor component={Link} to="/login" size="sm" fw={600}>
                Вход
              </Anchor>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/** /pay?paid=<id>: the payment's real status, where the provider sends the payer back (paid, cancelled or still processing). */
function PaidResult({ id }: { id: string }) {
  const result = usePublicPayment(id);
  const status = result.data;
  const view = result.isError
    ? { color: 'red', icon: <IconAlertCircle size={32} />, title: PaymentMessages.notFound, note: 'Проверьте ссылку или оплатите заново.' }
    : status === 'succeeded'
      ? { color: 'teal', icon: <IconCircleCheck size={32} />, title: PaymentMessages.resultPaid, note: 'Эту страницу можно закрыть.' }
      : status === 'canceled'
        ? { color: 'red', icon: <IconCircleX size={32} />, title: PaymentMessages.resultCanceled, note: 'Вы можете попробовать оплатить ещё раз.' }
        : {
            color: 'orange',
            icon: <IconClock size={32} />,
            title: PaymentMessages.resultPending,
            note: 'Страница обновится сама, как только платёжная система ответит.',
          };
  return (
    <Stack maw={440} mx="auto" gap="lg">
      <Paper p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm" data-testid="pay-result" data-status={result.isError ? 'not-found' : (status ?? 'loading')}>
        <Stack gap="md" align="center" ta="center">
          {result.isPending ? (
            <Loader />
          ) : (
            <ThemeIcon size={56} radius="xl" color={view.color} variant="light">
              {view.icon}
            </ThemeIcon>
          )}
          <Title order={1} size="h3">
            {result.isPending ? 'Проверяем платёж…' : view.title}
          </Title>
          {!result.isPending && (
            <Text c="dimmed" size="sm">
              {view.note}
            </Text>
          )}
          <Group justify="center" gap="sm" mt="xs">
            {(status === 'pending' || status === 'waiting_for_capture') && (
              <Button variant="light" leftSection={<IconRefresh size={16} />} loading={result.isFetching} onClick={() => void result.refetch()}>
                Обновить
              </Button>
            )}
            <Button component={Link} to="/pay" variant={status === 'canceled' ? 'filled' : 'default'}>
              {status === 'canceled' ? 'Оплатить ещё раз' : 'Оплатить ещё'}
            </Button>
            <Button component={Link} to="/login" variant={status === 'canceled' ? 'default' : 'filled'}>
              Вход
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
