import type { ComponentType } from 'react';
import {
  IconApi,
  IconBooks,
  IconBraces,
  IconCalendarEvent,
  IconCategory,
  IconChartBar,
  IconClipboardList,
  IconCreditCard,
  IconFileText,
  IconHistory,
  IconHome,
  IconIcons,
  IconId,
  IconMail,
  IconMapPin,
  IconMessageStar,
  IconMicrophone,
  IconNews,
  IconPackage,
  IconReceipt,
  IconSchool,
  IconTags,
  IconTemplate,
  IconUser,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';

/** Which sidebar the cabinet shows. */
export type Panel = 'user' | 'manager';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Which badge the item carries, when any. */
  badge?: 'leftSum' | 'pendingPublications';
}

/** User sidebar (spec 01 §2, User layout). */
export const USER_NAV: NavItem[] = [
  { to: '/user/dashboard', label: 'Главная', icon: IconHome },
  { to: '/user/entry', label: 'Мои заявки', icon: IconClipboardList, badge: 'leftSum' },
  { to: '/user/service', label: 'Услуги', icon: IconSchool },
  { to: '/user/service-package', label: 'Пакеты услуг', icon: IconPackage },
  { to: '/user/publication', label: 'Мои публикации', icon: IconNews },
  { to: '/user/profile', label: 'Профиль', icon: IconUser },
];

/** Manager sidebar (spec 02 §2): every operator path. */
export const MANAGER_NAV: NavItem[] = [
  { to: '/manager/dashboard', label: 'Статистика', icon: IconChartBar },
  { to: '/manager/entry', label: 'Заявки', icon: IconClipboardList },
  { to: '/manager/publication', label: 'Публикации', icon: IconNews, badge: 'pendingPublications' },
  { to: '/manager/contract', label: 'Договоры', icon: IconFileText },
  { to: '/manager/service', label: 'Услуги', icon: IconSchool },
  { to: '/manager/service-package', label: 'Пакеты услуг', icon: IconPackage },
  { to: '/manager/users', label: 'Пользователи', icon: IconUsers },
  { to: '/manager/payments', label: 'Платежи', icon: IconWallet },
  { to: '/manager/yookassa', label: 'ЮKassa', icon: IconCreditCard },
  { to: '/manager/macroses', label: 'Макросы', icon: IconBraces },
  { to: '/manager/templates', label: 'Шаблоны', icon: IconTemplate },
  { to: '/manager/events', label: 'События', icon: IconCalendarEvent },
  { to: '/manager/leadings', label: 'Ведущие', icon: IconMicrophone },
  { to: '/manager/service-types', label: 'Типы услуг', icon: IconCategory },
  { to: '/manager/profiles', label: 'Профили', icon: IconId },
  { to: '/manager/publication-categories', label: 'Рубрики публикаций', icon: IconTags },
  { to: '/manager/publication-releases', label: 'Выпуски журнала', icon: IconBooks },
  { to: '/manager/publication-prices', label: 'Цены публикаций', icon: IconReceipt },
  { to: '/manager/icons', label: 'Иконки', icon: IconIcons },
  { to: '/manager/reviews', label: 'Отзывы', icon: IconMessageStar },
  { to: '/manager/logs', label: 'Журнал изменений', icon: IconHistory },
  { to: '/manager/mailing', label: 'Рассылка', icon: IconMail },
  { to: '/manager/regions', label: 'Регионы', icon: IconMapPin },
  { to: '/manager/api-requests', label: 'Запросы API', icon: IconApi },
];


/** Where a panel starts: its first built screen (the statistics dashboard once it exists). */
export const panelHome = (panel: Panel) => (panel === 'manager' ? (MANAGER_NAV[0]?.to ?? '/manager/entry') : '/user/dashboard');

/** A sidebar item is active on its path and below it (e.g. /user/service/12). */
export function isActivePath(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}
