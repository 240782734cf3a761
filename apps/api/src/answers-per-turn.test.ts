import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendAnswersPerTurn } from './answers-per-turn.ts';

describe('sendAnswersPerTurn', () => {
  it('sends an answer once its event-loop turn has ended, and every answer of the turn', async () => {
    const app = Fastify();
    sendAnswersPerTurn(app);
    const events: string[] = [];
    app.get('/:name', async (request) => {
      const { name } = request.params as { name: string };
      events.push(`handled ${name}`);
      // Queued by the handler, so it runs before the turn's end the hook waits for.
      setImmediate(() => events.push(`turn of ${name} ending`));
      return { name };
    });
    app.addHook('onResponse', async (request) => {
      events.push(`sent ${(request.params as { name: string }).name}`);
    });
    await app.ready();
    const answers = await Promise.all(['a', 'b'].map((name) => app.inject(`/${name}`)));
    expect(answers.map((answer) => answer.json())).toEqual([{ name: 'a' }, { name: 'b' }]);
    for (const name of ['a', 'b']) {
      expect(events.indexOf(`handled ${name}`)).toBeLessThan(
        events.indexOf(`turn of ${name} ending`),
      );
      expect(events.indexOf(`turn of ${name} ending`)).toBeLessThan(events.indexOf(`sent ${name}`));
    }
    await app.close();
  });
});
