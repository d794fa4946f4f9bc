import { useState } from 'react';
import { Alert, Anchor, Button, Group, NumberInput, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import { PaymentMessages, publicPayBody } from '@edu/domain/payments/payment';
import { PhoneInput } from '../../../components/phone-input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { usePayIndependently } from '../api/pay-independently';

/** Shown on /pay?paid=<id>, where the provider sends the payer back. */
export const PAID_THANKS = 'Спасибо! Платёж принят в обработку.';

interface PayValues {
  fio: string;
  phone: string;
  sum: number | string;
}

/** /pay 'Оплата' (spec 03 §2, §5): anyone pays a free-form sum, no login. */
export function PayPage() {
  useDocumentTitle('Оплата');
  const [params] = useSearchParams();
  return params.has('paid') ? <PaidThanks /> : <PayForm />;
}

/** Which fields are still empty (a phone with only the +7 of the mask is empty). */
function missingFields(values: PayValues) {
  return {
    fio: values.fio.trim() === '',
    phone: values.phone.replace(/\D/g, '').length <= 1,
    sum: values.sum === '' || values.sum === null || values.sum === undefined,
  };
}

function PayForm() {
  const pay = usePayIndependently();
  const [incomplete, setIncomplete] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const form = useForm<PayValues>({ mode: 'controlled', initialValues: { fio: '', phone: '', sum: '' } });

  async function submit(values: PayValues) {
    const missing = missingFields(values);
    if (missing.fio || missing.phone || missing.sum) {
      setIncomplete(true);
      form.setErrors({ fio: missing.fio || null, phone: missing.phone || null, sum: missing.sum || null });
      return;
    }
    setIncomplete(false);
    // The server's rules, shown before the request (a short phone, a sum below 1 ₽ and so on).
    const parsed = publicPayBody.safeParse(values);
    if (!parsed.success) {
      form.setErrors(firstErrors(fieldErrorsFromZod(parsed.error)));
      return;
    }
    form.clearErrors();
    try {
      const answer = await pay.mutateAsync(parsed.data);
      const url = answer?.confirmation?.confirmation_url;
      if (!url) {
        notifyError(PaymentMessages.failed);
        return;
      }
      setLeaving(true);
      window.location.assign(url);
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        notifyError(PaymentMessages.fillAll);
        form.setErrors(firstErrors(error.errors));
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
        <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Оплата">
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
              rightSection={<Text c="dimmed" size="sm">₽</Text>}
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

function PaidThanks() {
  return (
    <Stack maw={440} mx="auto" gap="lg">
      <Paper p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm" data-testid="pay-thanks">
        <Stack gap="md" align="center" ta="center">
          <ThemeIcon size={56} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Title order={1} size="h3">
            {PAID_THANKS}
          </Title>
          <Text c="dimmed" size="sm">
            Эту страницу можно закрыть.
          </Text>
          <Group justify="center" gap="sm" mt="xs">
            <Button component={Link} to="/pay" variant="default">
              Оплатить ещё
            </Button>
            <Button component={Link} to="/login">
              Вход
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
