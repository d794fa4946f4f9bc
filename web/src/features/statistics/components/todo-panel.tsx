import type { ReactNode } from 'react';
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconBuildingBank,
  IconCalendarDue,
  IconCertificate,
  IconChecks,
  IconFileCheck,
  IconMailExclamation,
  IconNews,
  IconReceiptRefund,
  IconWorldExclamation,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { plural } from '@edu/domain/common/plural';
import { todoLinks, type Todo } from '@edu/domain/statistics/todo';
import { errorMessage } from '../../../lib/api-client';
import { useTodo } from '../api/get-todo';

const number = new Intl.NumberFormat('ru-RU');

interface Item {
  key: keyof Todo;
  title: string;
  icon: ReactNode;
  color: string;
  /** A second count with its own link (e.g. the unpaid ones among the pending publications). */
  extra?: { key: keyof Todo; text: (n: number) => string };
  /** What the count measures, when it is not a number of things (the requisites: fields). */
  caption?: (n: number) => string;
}

const ITEMS: Item[] = [
  {
    key: 'contracts_to_review',
    title: 'Сканы договоров на проверку',
    icon: <IconFileCheck size={22} />,
    color: 'yellow',
    extra: { key: 'contracts_waiting_scan', text: (n) => `ещё ждём скан: ${number.format(n)}` },
  },
  {
    key: 'publications_pending',
    title: 'Публикации на модерации',
    icon: <IconNews size={22} />,
    color: 'orange',
    extra: { key: 'publications_pending_unpaid', text: (n) => `из них не оплачено: ${number.format(n)}` },
  },
  { key: 'entries_overdue', title: 'Не оплачены, а мероприятие уже началось', icon: <IconCalendarDue size={22} />, color: 'red' },
  { key: 'payments_attention', title: 'Двойные оплаты и возвраты без ответа', icon: <IconReceiptRefund size={22} />, color: 'grape' },
  { key: 'mailing_failed', title: 'Рассылки с недоставленными письмами за неделю', icon: <IconMailExclamation size={22} />, color: 'pink' },
  { key: 'services_publish_failed', title: 'Услуги не опубликованы на сайте', icon: <IconWorldExclamation size={22} />, color: 'cyan' },
  { key: 'templates_missing', title: 'Типы услуг без шаблона сертификата', icon: <IconCertificate size={22} />, color: 'indigo' },
  {
    key: 'requisites_missing',
    title: 'Реквизиты центра для счетов и договоров',
    icon: <IconBuildingBank size={22} />,
    color: 'gray',
    caption: (n) => `${plural(n, 'поле не заполнено', 'поля не заполнены', 'полей не заполнено')}`,
  },
];

/** One kind of work: its count links to the list filtered to exactly those records. */
function TodoCard({ item, todo }: { item: Item; todo: Todo }) {
  const count = todo[item.key];
  const extra = item.extra ? todo[item.extra.key] : 0;
  return (
    <Paper p="md" radius="md" withBorder data-testid={`todo-${item.key}`} data-count={count}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color={item.color} size={40} radius="md">
          {item.icon}
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <UnstyledButton component={Link} to={todoLinks[item.key]}>
            <Group gap={8} align="baseline" wrap="nowrap">
              <Text fz={26} fw={700} lh={1.1} c={`${item.color}.8`}>
                {number.format(count)}
              </Text>
              {item.caption && (
                <Text size="sm" c="dimmed">
                  {item.caption(count)}
                </Text>
              )}
            </Group>
            <Text size="sm" fw={500} lh={1.3}>
              {item.title}
            </Text>
          </UnstyledButton>
          {item.extra && extra > 0 && (
            <Anchor component={Link} to={todoLinks[item.extra.key]} size="sm" data-testid={`todo-${item.extra.key}`}>
              {item.extra.text(extra)}
            </Anchor>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * The top of the operator's dashboard (issue 30): what needs a person today, each with a count and
 * a link to the list filtered to it. Work waiting comes first; the kinds with nothing to do are
 * listed in one quiet line under it.
 */
export function TodoPanel() {
  const todo = useTodo();
  return (
    <Stack gap="sm" component="section" aria-labelledby="todo-title">
      <Title order={2} size="h3" id="todo-title">
        Нужно сделать
      </Title>
      {todo.isError && <Text c="red.7">{errorMessage(todo.error)}</Text>}
      {!todo.data && !todo.isError && (
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} h={96} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {todo.data && <TodoItems todo={todo.data} />}
    </Stack>
  );
}

function TodoItems({ todo }: { todo: Todo }) {
  const open = ITEMS.filter((i) => todo[i.key] > 0 || (i.extra && todo[i.extra.key] > 0));
  const done = ITEMS.filter((i) => !open.includes(i));
  return (
    <>
      {open.length === 0 ? (
        <Paper p="md" radius="md" withBorder data-testid="todo-empty">
          <Group gap="sm">
            <ThemeIcon variant="light" color="teal" size={40} radius="md">
              <IconChecks size={22} />
            </ThemeIcon>
            <Text>Срочных дел нет: всё проверено и оплачено.</Text>
          </Group>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md" data-testid="todo-open">
          {open.map((item) => (
            <TodoCard key={item.key} item={item} todo={todo} />
          ))}
        </SimpleGrid>
      )}
      {done.length > 0 && open.length > 0 && (
        <Group gap={6} wrap="wrap" data-testid="todo-done">
          <Text size="xs" c="dimmed">
            Сейчас пусто: {done.map((i) => i.title.toLowerCase()).join('; ')}.
          </Text>
        </Group>
      )}
    </>
  );
}
