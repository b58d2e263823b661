// What the dashboard shows of a spec's cron schedule (docs/reference.md#schedules): its expression, zone,
// catch-up and next fire time.
import {fact, h, time} from './dom.js';

/** The schedule of the spec's meta as facts, or null when it has none (or the spec could not be read). */
export function specSchedule(meta) {
  const schedule = meta?.schedule;
  if (!schedule) return null;
  return h('dl', {class: 'facts', 'data-testid': 'spec-schedule'},
    fact('Schedule', h('span', {'data-testid': 'schedule-cron'},
      `${schedule.cron} (${schedule.timezone}), catch-up ${schedule.catch_up}`)),
    fact('Next fire', h('span', {'data-testid': 'schedule-next-fire', title: schedule.next_fire_time ?? ''},
      time(schedule.next_fire_time))));
}
