import { claimRewardCommand } from './claim-reward-command.ts';

/** /bonus: the bonus reward, exactly as on the Rewards page. */
export const bonusCommand = claimRewardCommand('bonus', 'bonus', {
  name: 'commands.bonus.name',
  description: 'commands.bonus.description',
});
