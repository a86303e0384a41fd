import { Button, Stack } from '@chakra-ui/react';
import {
  CAMPAIGN_MESSAGES,
  insufficientForNoBot,
  parseMemberCount,
  submitNoBotSchema,
} from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { toast } from '../../lib/toaster.tsx';
import { CostSummary } from './cost-summary.tsx';
import { InviteLinkField, ServerNameField, WholeNumberField } from './form-fields.tsx';
import type { SubmitFormProps } from './regular-form.tsx';
import { useSubmitNoBot } from './use-submit-nobot.ts';
import { passesSchema } from './validate.ts';
import { rewardText } from '@shared/campaign-kinds.ts';

/** No-bot campaign: no bot needed, 1 coin per member, members earn 0.20 after 10 seconds. */
export function NoBotForm({ balanceCents, balanceText }: Omit<SubmitFormProps, 'onBotMissing'>) {
  const [name, setName] = useState('');
  const [inviteLink, setInviteLink] = useState('');
  const [memberCount, setMemberCount] = useState('10');
  const submit = useSubmitNoBot({
    onSuccess: () => {
      setName('');
      setInviteLink('');
      setMemberCount('10');
    },
  });
  const members = parseMemberCount(memberCount) ?? 0;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const count = parseMemberCount(memberCount);
    if (count === null) {
      toast({
        title: 'Validation Error',
        description: CAMPAIGN_MESSAGES.memberCount,
        variant: 'destructive',
      });
      return;
    }
    if (balanceCents < count * 100) {
      toast({
        title: 'Insufficient Coins',
        description: insufficientForNoBot(count, balanceText),
        variant: 'destructive',
      });
      return;
    }
    const input = { name, inviteLink, memberCount };
    if (!passesSchema(submitNoBotSchema, input)) return;
    submit.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="No-bot campaign">
      <Stack gap="5">
        <ServerNameField id="nobot-name" value={name} onChange={setName} />
        <InviteLinkField id="nobot-invite" value={inviteLink} onChange={setInviteLink} />
        <WholeNumberField
          id="nobot-members"
          name="memberCount"
          label="Number of Members"
          value={memberCount}
          onChange={setMemberCount}
          helper="1 coin per member. Minimum 3 members."
        />
        <CostSummary
          rows={[
            { label: 'Members you get', value: members },
            { label: 'Members earn per join', value: <CoinAmount value={rewardText('nobot')} size="sm" /> },
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
          <LuSend /> Add Server
        </Button>
      </Stack>
    </form>
  );
}
