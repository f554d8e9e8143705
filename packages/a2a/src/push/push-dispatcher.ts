import type { PushConfigStore } from '@pty-ws/ports';
import { renderA2a } from '../render';
import { eventsOfUpdate, type TaskUpdate } from '../stream-events';
import type { WebhookDeliverer } from './webhook-deliverer';

/**
 * Turns each task status update into push notifications: one POST per stream event (the final
 * update's artifacts, then the status update — the same events an SSE stream carries), to every
 * config of the task. It runs where the update is made, on the session's owner, so each update
 * is dispatched once however many edges serve the instance.
 */
export class PushDispatcher {
  constructor(
    private readonly configs: PushConfigStore,
    private readonly deliverer: WebhookDeliverer,
    private readonly logger?: { warn(obj: object, msg: string): void },
  ) {}

  /** Per task, so the config lookups of two updates cannot overtake each other. */
  private readonly chains = new Map<string, Promise<void>>();

  /** Called after the update is stored and logged; never throws. */
  taskUpdated(update: TaskUpdate): void {
    const taskId = update.task.id;
    const next = (this.chains.get(taskId) ?? Promise.resolve())
      .then(() => this.dispatch(update))
      .catch((err: unknown) =>
        this.logger?.warn({ task_id: taskId, err: (err as Error).message }, 'push configs unavailable'),
      );
    this.chains.set(taskId, next);
    void next.finally(() => {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    });
  }

  /** Resolves once every update handed over so far has been queued for delivery. */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  private async dispatch(update: TaskUpdate): Promise<void> {
    const configs = await this.configs.list(update.task.id);
    if (configs.length === 0) return;
    // The body is an A2A v1.0 StreamResponse (`{"statusUpdate": {...}}`), as SSE streams carry it.
    const events = eventsOfUpdate(update).map(renderA2a.event);
    for (const c of configs) {
      for (const event of events) {
        this.deliverer.enqueue(
          {
            taskId: c.taskId,
            configId: c.configId,
            url: c.url,
            ...(c.token !== undefined ? { token: c.token } : {}),
            ...(c.authentication ? { authentication: c.authentication } : {}),
          },
          event,
        );
      }
    }
  }
}
