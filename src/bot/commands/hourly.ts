import { claimRewardCommand } from './claim-reward-command.ts';

/** /hourly: the hourly reward, exactly as on the Rewards page. */
export const hourlyCommand = claimRewardCommand('hourly', 'regular', {
  name: 'commands.hourly.name',
  description: 'commands.hourly.description',
});
