/** Settings the integration servers start with (global-setup.ts) that tests also need to know. */

/** The login throttle's first wait (LOGIN_THROTTLE_FIRST_WAIT_SECONDS): long enough that login-throttle.test.ts's
 * next attempt (a CSRF fetch and a sign-in) arrives within it on a loaded machine, which 1 s (the default) was not. */
export const LOGIN_FIRST_WAIT_SECONDS = 4;
