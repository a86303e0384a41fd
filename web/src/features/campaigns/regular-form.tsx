import { Button, Stack } from '@chakra-ui/react';
import { insufficientForSubmit, parseCampaignCoins, submitServerSchema } from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { toast } from '../../lib/toaster.tsx';
import { CostSummary } from './cost-summary.tsx';
import { InviteLinkField, ServerNameField, WholeNumberField } from './form-fields.tsx';
import { useSubmitServer } from './use-submit-server.ts';
import { passesSchema } from './validate.ts';
import { rewardText } from '@shared/campaign-kinds.ts';

export interface SubmitFormProps {
  balanceCents: number;
  /** The balance as shown to the user, e.g. "12.50". */
  balanceText: string;
  onBotMissing: (inviteUrl: string) => void;
}

/** Regular campaign: 1 coin per member slot, at least 3. */
export function RegularForm({ balanceCents, balanceText, onBotMissing }: SubmitFormProps) {
  const [name, setName] = useState('');
  const [inviteLink, setInviteLink] = useState('');
  const [coins, setCoins] = useState('10');
  const submit = useSubmitServer({
    onBotMissing,
    onSuccess: () => {
      setName('');
      setInviteLink('');
      setCoins('10');
    },
  });
  const parsed = parseCampaignCoins(coins);
  const members = parsed.ok ? parsed.coins : 0;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // The spec's order: amount first, then balance, then the schema's first problem.
    if (!parsed.ok) {
      toast({ title: 'Validation Error', description: parsed.message, variant: 'destructive' });
      return;
    }
    if (balanceCents < parsed.coins * 100) {
      toast({
        title: 'Insufficient Coins',
        description: insufficientForSubmit(parsed.coins, balanceText),
        variant: 'destructive',
      });
      return;
    }
    const input = { name, inviteLink, coinReward: coins };
    if (!passesSchema(submitServerSchema, input)) return;
    submit.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Regular campaign">
      <Stack gap="5">
        <ServerNameField id="regular-name" value={name} onChange={setName} />
        <InviteLinkField id="regular-invite" value={inviteLink} onChange={setInviteLink} />
        <WholeNumberField
          id="regular-coins"
          name="coinReward"
          label="Coins to Spend"
          value={coins}
          onChange={setCoins}
          helper="1 coin = 1 member. Minimum 3 coins."
        />
        <CostSummary
          rows={[
            { label: 'Members you get', value: members },
            { label: 'Members earn per join', value: <CoinAmount value={rewardText('regular')} size="sm" /> },
            { label: 'Cost', value: <CoinAmount value={members} size="sm" /> },
          ]}
        />
        <Button
          type="submit"
          colorPalette="brand"
          size="lg"
          loading={submit.isPending}
          loadingText="Submitting..."
        >
          <LuSend /> Submit Server
        </Button>
      </Stack>
    </form>
  );
}
