import type { Config } from '../config.ts';
import { BotApiClient } from './bot-api-client.ts';

/**
 * The centre's bot as the app sees it (app.telegram): the Bot API client when TELEGRAM_BOT_TOKEN is
 * set, null otherwise (the settings say so and nothing is sent), and the bot's @username for the
 * deep links, asked once with getMe.
 */
export class Telegram {
  readonly client: BotApiClient | null;
  private username: Promise<string> | null = null;

  constructor(readonly config: Config['telegram']) {
    this.client = config ? new BotApiClient({ token: config.token, apiUrl: config.apiUrl }) : null;
  }

  /** The app is closing: the webhook retries and the long polling loop stop. */
  closed = false;

  close(): void {
    this.closed = true;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** The bot's username (getMe), kept after the first answer; a failure is asked again next time. */
  botUsername(): Promise<string> {
    if (!this.client) return Promise.reject(new Error('telegram is off'));
    this.username ??= this.client.getMe().then(
      (me) => me.username ?? '',
      (err: unknown) => {
        this.username = null;
        throw err;
      },
    );
    return this.username;
  }
}
