import { SetMetadata } from '@nestjs/common';

export const IS_ADMIN = 'hallmark:admin';

export interface AdminRouteOptions {
  /** A change any signed-in operator may make on their own behalf (signing out). */
  readonly viewersToo?: boolean;
  /** Reads need the admin role too (what only admins act on: the operators). */
  readonly adminsOnly?: boolean;
}

/**
 * A route of the admin API: an operator's session cookie, never an API key. Changes (any method
 * but GET) also need the session's CSRF token and, unless `viewersToo`, the admin role; with
 * `adminsOnly`, reads need the admin role as well.
 */
export const AdminRoute = (options: AdminRouteOptions = {}) => SetMetadata(IS_ADMIN, options);
