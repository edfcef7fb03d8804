import { LATE, withinBudget } from './budget';

describe('withinBudget', () => {
  it("gives the work's value when it settles in time", async () => {
    await expect(withinBudget(Promise.resolve(7), 1_000)).resolves.toBe(7);
  });

  it('gives LATE when the work outlasts the budget', async () => {
    const slow = new Promise((resolve) => setTimeout(() => resolve('done'), 200));
    await expect(withinBudget(slow, 5)).resolves.toBe(LATE);
  });

  it("passes on the work's rejection within the budget", async () => {
    await expect(withinBudget(Promise.reject(new Error('down')), 1_000)).rejects.toThrow('down');
  });
});
