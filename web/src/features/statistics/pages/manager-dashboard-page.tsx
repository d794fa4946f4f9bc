import '@mantine/charts/styles.css';
import type { ReactNode } from 'react';
import { BarChart, LineChart } from '@mantine/charts';
import { Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconClipboardList, IconCoin, IconNews, IconUsers } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { kopecksOf, rublesOf } from '@edu/domain/common/money';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { lastMonthGrowth, monthLabel, thousands, type MonthlyFigures } from '@edu/domain/statistics/statistics';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRefundStatistic, useStatistic, type StatisticName } from '../api/get-statistics';
import { TodoPanel } from '../components/todo-panel';

const number = new Intl.NumberFormat('ru-RU');

function Growth({ growth }: { growth: number | null }) {
  if (growth === null)
    return (
      <Text size="xs" c="dimmed">
        нет данных за прошлый месяц
      </Text>
    );
  const up = growth >= 0;
  return (
    <Badge
      color={up ? 'teal' : 'red'}
      variant="light"
      tt="none"
      leftSection={up ? <IconArrowUpRight size={14} /> : <IconArrowDownRight size={14} />}
      title="Рост к прошлому месяцу"
      data-testid="growth"
    >
      {up ? '+' : ''}
      {new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 }).format(growth)}%
    </Badge>
  );
}

interface CardProps {
  name: StatisticName;
  title: string;
  icon: ReactNode;
  color: string;
  format: (value: number) => string;
  /** A line under the figure (income: what was received and refunded). */
  note?: ReactNode;
}

/** This month's income as received and refunded, when something was refunded (the figure above is net). */
function IncomeNote({ net }: { net: MonthlyFigures | undefined }) {
  const refunds = useRefundStatistic();
  const month = Object.keys(net ?? {}).at(-1);
  const refunded = month ? kopecksOf(refunds.data?.[month]) : 0;
  if (!net || !month || refunded <= 0) return null;
  const received = kopecksOf(net[month]) + refunded;
  return (
    <Text size="xs" c="dimmed" data-testid="income-note">
      {PaymentMessages.receivedRefunded(formatRub(rublesOf(received)), formatRub(rublesOf(refunded)))}
    </Text>
  );
}

/** One card: this month's figure and its growth against the previous month. */
function StatCard({ name, title, icon, color, format, note }: CardProps) {
  const stat = useStatistic(name);
  const figures = stat.data ? lastMonthGrowth(stat.data) : null;
  return (
    <Paper p="md" radius="md" data-testid={`stat-${name}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed" fw={500}>
            {title}
          </Text>
          {figures ? (
            <Text fz={26} fw={700} lh={1.15} style={{ whiteSpace: 'nowrap' }} data-testid="stat-value">
              {format(figures.value)}
            </Text>
          ) : stat.isError ? (
            <Text c="red.7" size="sm">
              {errorMessage(stat.error)}
            </Text>
          ) : (
            <Skeleton h={30} w={100} />
          )}
          {note}
        </Stack>
        <ThemeIcon variant="light" color={color} size={42} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
      <Group gap={6} mt="sm">
        {figures && <Growth growth={figures.growth} />}
        {figures && figures.growth !== null && (
          <Text size="xs" c="dimmed">
            к прошлому месяцу
          </Text>
        )}
      </Group>
    </Paper>
  );
}

const series = (data: MonthlyFigures | undefined, key: string) =>
  Object.entries(data ?? {}).map(([month, value]) => ({ month: monthLabel(month), [key]: value }));

function ChartCard({ title, children, loading }: { title: string; children: ReactNode; loading: boolean }) {
  return (
    <Paper p="md" radius="md">
      <Text fw={600} mb="md" size="sm">
        {title}
      </Text>
      {loading ? <Skeleton h={280} /> : children}
    </Paper>
  );
}

/**
 * /manager/dashboard (spec 02 §2): first what needs a person today (issue 30), then four cards with
 * growth, income over 12 months (line), entries (bars).
 */
export function ManagerDashboardPage() {
  useDocumentTitle('Статистика');
  const income = useStatistic('payment');
  const entries = useStatistic('entry');
  return (
    <Stack gap="lg">
      <TodoPanel />
      <Title order={2} size="h3">
        Статистика
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
        <StatCard name="entry" title="Заявки" icon={<IconClipboardList size={24} />} color="blue" format={(v) => number.format(v)} />
        <StatCard name="user" title="Пользователи" icon={<IconUsers size={24} />} color="grape" format={(v) => number.format(v)} />
        <StatCard name="payment" title="Доход" icon={<IconCoin size={24} />} color="teal" format={thousands} note={<IncomeNote net={income.data} />} />
        <StatCard name="publication" title="Публикации" icon={<IconNews size={24} />} color="orange" format={(v) => number.format(v)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ChartCard title="Доход по месяцам" loading={income.isPending}>
          <LineChart
            h={280}
            data={series(income.data, 'Доход')}
            dataKey="month"
            series={[{ name: 'Доход', color: 'teal.6' }]}
            curveType="monotone"
            valueFormatter={(v) => formatRub(v)}
            yAxisProps={{ tickFormatter: (v: number) => thousands(v), width: 80 }}
            data-testid="income-chart"
          />
        </ChartCard>
        <ChartCard title="Заявки по месяцам" loading={entries.isPending}>
          <BarChart
            h={280}
            data={series(entries.data, 'Заявки')}
            dataKey="month"
            series={[{ name: 'Заявки', color: 'blue.6' }]}
            valueFormatter={(v) => number.format(v)}
            data-testid="entries-chart"
          />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}
