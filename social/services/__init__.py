"""Every write of the social rules is one of these modules' functions: blocks, chat, moderation,
cool-downs (docs/architecture.md § The shape)."""
