import { describe, expect, it } from 'vitest';
import { assignmentOf, currentChoice } from './assignee-choice.ts';

describe('assignee choice', () => {
  it('shows the person first, else the team, else nobody', () => {
    expect(currentChoice({ assignee_id: 3, team_id: 2 })).toBe('person:3');
    expect(currentChoice({ assignee_id: null, team_id: 2 })).toBe('team:2');
    expect(currentChoice({ assignee_id: null, team_id: null })).toBe('');
  });

  it('asks for a person, a team without a person, or nobody', () => {
    expect(assignmentOf('person:3')).toEqual({ assignee_id: 3 });
    expect(assignmentOf('team:2')).toEqual({ assignee_id: null, team_id: 2 });
    expect(assignmentOf('')).toEqual({ assignee_id: null, team_id: null });
  });

  it('asks for nothing with a value it does not know', () => {
    expect(assignmentOf('team:x')).toBeUndefined();
    expect(assignmentOf('group:2')).toBeUndefined();
    expect(assignmentOf('person:-1')).toBeUndefined();
  });
});
