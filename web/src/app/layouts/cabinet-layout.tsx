import { Suspense, useState } from 'react';
import { AppShell, Box, ScrollArea, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { isOperator } from '@edu/domain/common/codes';
import type { Service } from '@edu/domain/services/service';
import { PageLoader } from '../../components/page-loader';
import { useCurrentUser } from '../../lib/current-user';
import { EntryModal } from '../../features/entries/components/entry-modal';
import { NotificationWatcher } from '../../features/notifications/components/notification-watcher';
import { SearchModal } from '../../features/search/components/search-modal';
import { LoginAsBanner } from '../../features/users/components/login-as-banner';
import { AppFooter } from './app-footer';
import { MANAGER_NAV, USER_NAV, type Panel } from './navigation';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import classes from './cabinet-layout.module.css';

/** The signed-in layout: top bar, sidebar (user or manager panel), content and footer. */
export function CabinetLayout({ panel }: { panel: Panel }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { data: user } = useCurrentUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  // A search result picked by a user opens the enrol modal right here, over the current page.
  const [picked, setPicked] = useState<Service | null>(null);
  const searchField = (
    <TextInput
      aria-label="Поиск услуг"
      placeholder="Поиск услуг"
      leftSection={<IconSearch size={16} />}
      value={search}
      onChange={(event) => setSearch(event.currentTarget.value)}
      radius="xl"
    />
  );

  if (!user) return <PageLoader fullScreen />;

  function pick(service: Service) {
    setSearch('');
    close();
    // Fire-and-forget: nothing waits on the route transition.
    if (isOperator(user)) void navigate(`/manager/service/${service.id}`);
    else setPicked(service);
  }

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
      className={classes.shell}
    >
      <AppShell.Header>
        <TopBar panel={panel} user={user} navOpened={opened} onToggleNav={toggle} search={panel === 'user' ? searchField : null} />
      </AppShell.Header>

      <AppShell.Navbar aria-label={panel === 'manager' ? 'Меню оператора' : 'Меню пользователя'}>
        {panel === 'user' && (
          <Box p="sm" pb={0} hiddenFrom="sm">
            {searchField}
          </Box>
        )}
        <AppShell.Section grow component={ScrollArea} p="sm" type="scroll">
          <Sidebar items={panel === 'manager' ? MANAGER_NAV : USER_NAV} pathname={pathname} user={user} onNavigate={close} compact={panel === 'manager'} />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        <Box className={classes.content}>
          <LoginAsBanner user={user} />
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
        <AppFooter />
      </AppShell.Main>

      <NotificationWatcher userId={user.id} />
      {panel === 'user' && (
        <>
          <SearchModal value={search} onChange={setSearch} onPick={pick} />
          <EntryModal opened={picked !== null} service={picked} onClose={() => setPicked(null)} />
        </>
      )}
    </AppShell>
  );
}
