import { claimRewardCommand } from './claim-reward-command.ts';

/** /daily: the daily reward, exactly as on the Rewards page. */
export const dailyCommand = claimRewardCommand('daily', 'daily', {
  name: 'commands.daily.name',
  description: 'commands.daily.description',
});
