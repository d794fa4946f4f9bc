import { Paper, Text, ThemeIcon, Timeline, Title } from '@mantine/core';

const steps = [
  { title: 'Выберите услугу или пакет услуг', text: 'Курсы, конференции, конкурсы и публикации — в разделах «Услуги» и «Пакеты услуг».' },
  { title: 'Оплатите заявку', text: 'Онлайн картой или другим способом; заявки и оплаты — в разделе «Мои заявки».' },
  { title: 'Примите участие', text: 'Очно или дистанционно, в зависимости от выбранной услуги.' },
  { title: 'Добавьте тезисы', text: 'Если услуга их требует, добавьте тезисы к заявке.' },
  { title: 'Получите сертификат', text: 'После завершения мероприятия сертификат можно распечатать из заявки.' },
];

/** The user path of spec 01 §1 ('С чего начать?'). */
export function GettingStarted() {
  return (
    <Paper p="lg" radius="lg">
      <Title order={3} size="h4" mb="md">
        С чего начать?
      </Title>
      <Timeline active={-1} bulletSize={28} lineWidth={2} color="indigo">
        {steps.map((step, index) => (
          <Timeline.Item
            key={step.title}
            bullet={
              <ThemeIcon size={28} radius="xl" variant="light" color="indigo">
                <Text size="sm" fw={700} inherit>
                  {index + 1}
                </Text>
              </ThemeIcon>
            }
            title={
              <Text fw={600} lh={1.35}>
                {step.title}
              </Text>
            }
          >
            <Text size="sm" c="dimmed">
              {step.text}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}
