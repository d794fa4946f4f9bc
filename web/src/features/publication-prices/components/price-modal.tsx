import { useEffect } from 'react';
import { Button, Group, Modal, NumberInput, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MAX_AUTHORS, priceBody, type PublicationPrice } from '@edu/domain/publication-prices/publication-price';
import { useDictionary } from '../../../lib/dictionaries';
import { submitChecked } from '../../../lib/submit-checked';
import { useSavePrice } from '../api/prices';

interface Values {
  dict_service_subtype_id: string | null;
  authors_num: number | string;
  price: number | string;
}

const EMPTY: Values = { dict_service_subtype_id: null, authors_num: 1, price: '' };

/** The price modal: publication type, number of authors, price in rubles. */
export function PriceModal({ price, onClose }: { price: PublicationPrice | null | undefined; onClose: () => void }) {
  const save = useSavePrice();
  const subtypes = useDictionary('dict_service_subtypes');
  const form = useForm<Values>({ initialValues: EMPTY });
  const opened = price !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(price ? { dict_service_subtype_id: String(price.dict_service_subtype_id), authors_num: price.authors_num, price: price.price } : EMPTY);
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, price?.id]);
  const options = (subtypes.data ?? []).filter((s) => s.is_publication).map((s) => ({ value: String(s.id), label: s.fdv }));

  async function submit(values: Values) {
    const body = { ...values, dict_service_subtype_id: values.dict_service_subtype_id ? Number(values.dict_service_subtype_id) : undefined };
    if (await submitChecked(form.setErrors, priceBody, body, () => save.mutateAsync({ id: price?.id ?? null, body }))) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={price ? 'Цена публикации' : 'Новая цена'} centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <Select label="Тип" withAsterisk data={options} placeholder="Выберите тип" allowDeselect={false} {...form.getInputProps('dict_service_subtype_id')} />
          <NumberInput
            label="Кол-во авторов"
            withAsterisk
            min={1}
            max={MAX_AUTHORS}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('authors_num')}
          />
          <NumberInput
            label="Цена"
            withAsterisk
            min={0}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=" "
            suffix=" ₽"
            {...form.getInputProps('price')}
          />
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose}>
              Отмена
            </Button>
            <Button type="submit" loading={save.isPending}>
              Сохранить
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
