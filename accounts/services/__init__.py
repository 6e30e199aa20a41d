"""Every write in accounts is one of these functions (docs/architecture.md § The shape), grouped
by subject."""

from ..names import GUEST_PREFIX
from .friends import (
    are_friends,
    friend_remove,
    friend_request_accept,
    friend_request_cancel,
    friend_request_decline,
    friend_request_send,
)
from .players import (
    SESSION_GUEST_KEY,
    player_create_guest,
    player_for_user,
    player_seen,
    user_deactivate,
)
from .prize_pools import (
    pool_balance,
    wallet_pool_enter,
    wallet_pool_pay,
    wallet_pool_refund,
    wallet_pool_refund_entry,
)
from .wallet import (
    InsufficientCoins,
    Stake,
    can_claim_daily,
    split_pot,
    stake_outcome,
    wallet_admin_adjust,
    wallet_claim_daily,
    wallet_open,
    wallet_refund,
    wallet_settle,
    wallet_stake,
)

__all__ = [
    "GUEST_PREFIX",
    "SESSION_GUEST_KEY",
    "InsufficientCoins",
    "Stake",
    "are_friends",
    "can_claim_daily",
    "friend_remove",
    "friend_request_accept",
    "friend_request_cancel",
    "friend_request_decline",
    "friend_request_send",
    "player_create_guest",
    "player_for_user",
    "player_seen",
    "pool_balance",
    "split_pot",
    "stake_outcome",
    "user_deactivate",
    "wallet_admin_adjust",
    "wallet_claim_daily",
    "wallet_open",
    "wallet_pool_enter",
    "wallet_pool_pay",
    "wallet_pool_refund",
    "wallet_pool_refund_entry",
    "wallet_refund",
    "wallet_settle",
    "wallet_stake",
]
