/**
 * Preloaded into each app that `npm start` runs (`node --require`). The launcher talks to its
 * apps over an IPC channel only so that they notice it is gone: when it dies without stopping
 * them (kill -9, a crash), the channel closes and the app stops as on SIGTERM, draining, instead
 * of holding its port and its connections until someone finds it.
 */
if (process.channel) {
  // The channel must not keep an app alive on its own.
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
