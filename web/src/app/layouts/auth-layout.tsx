import { Suspense } from 'react';
import { Box, Button, Container, Group } from '@mantine/core';
import { Link, NavLink, Outlet } from 'react-router';
import { Brand } from '../../components/brand';
import { PageLoader } from '../../components/page-loader';
import classes from './auth-layout.module.css';

/** Public pages: a top bar with Вход and Регистрация (spec 01 §2). */
export function AuthLayout() {
  return (
    <Box className={classes.root}>
      <Box component="header" className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Link to="/login" className={classes.brandLink} aria-label="Личный кабинет — на страницу входа">
              <Brand />
            </Link>
            <Group gap={6} wrap="nowrap" component="nav" aria-label="Вход и регистрация">
              <Button component={NavLink} to="/login" variant="subtle" className={classes.topLink}>
                Вход
              </Button>
              <Button component={NavLink} to="/register" variant="subtle" className={classes.topLink}>
                Регистрация
              </Button>
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" size="lg" py={{ base: 'lg', sm: 40 }} px={{ base: 'sm', sm: 'md' }}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
    </Box>
  );
}
