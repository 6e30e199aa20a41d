// @ts-check
// The frames of the table socket (docs/protocol.md), as JSDoc types for the modules that read
// them. Nothing runs here: the file exists for `// @ts-check` and for the reader.

/**
 * @typedef {"S" | "H" | "D" | "C"} Suit
 * A card code as in the protocol: "QH", "TS", "X1" (docs/rules/README.md § 0.1).
 * @typedef {string} Card
 */

/**
 * One legal action, as the server lists it in `view.legal` and expects it back in `act`.
 * @typedef {object} Action
 * @property {"play" | "trump" | "bid" | "declare"} type
 * @property {Card} [card]
 * @property {Suit | null} [suit]
 * @property {"want" | "take" | "high" | "low"} [call]
 * @property {number} [tricks]
 * @property {"spel" | "pass"} [contract]
 */

/**
 * @typedef {object} Play
 * @property {number} seat
 * @property {Card} card
 * @property {"want" | "take" | "high" | "low"} [call]
 * @property {Suit} [suit]
 */

/**
 * @typedef {object} CompletedTrick
 * @property {Play[]} plays
 * @property {number} winner
 */

/**
 * The end of the last hand or deal (`view.previous_hand`); each game adds its own keys.
 * @typedef {object} PreviousHand
 * @property {number} [hand_number]
 * @property {number} [deal_number]
 * @property {Suit | null} trump
 * @property {number[]} tricks
 * @property {number[]} points
 * @property {number[]} [bids]           classic Joker
 * @property {number} [pulka]            classic Joker
 * @property {boolean} [pulka_closed]    classic Joker
 * @property {number[]} [premia]         classic Joker
 * @property {"spel" | "pass" | null} [contract]  Japanese Whist
 * @property {number} [forehand]         Japanese Whist
 * @property {number} [declarer]         Japanese Joker
 */

/**
 * The engine's `view(seat)`: the keys every game shares (games/rules/contract.py `View`) and,
 * optional here, those of one game (its engine's view type).
 * @typedef {object} View
 * @property {string} game  a game id of the registry (games/rules/registry.py)
 * @property {string} phase  "trump" | "bid" | "declare" | "play" | "over"
 * @property {number | null} to_act
 * @property {number | null} seat
 * @property {number} players
 * @property {number} hand_number
 * @property {Suit | null} [trump]  absent until known
 * @property {number[]} tricks
 * @property {number[]} scores
 * @property {number[]} hand_counts
 * @property {Card[]} [hand]       absent for spectators
 * @property {Play[]} trick
 * @property {number | null} leader
 * @property {CompletedTrick | null} last_trick
 * @property {PreviousHand | null} previous_hand
 * @property {Action[]} legal
 * @property {number[] | null} forfeited
 * @property {number[] | null} result
 * @property {number} [target]                 Japanese Joker, Japanese Whist
 * @property {number} [declarer]               Japanese Joker
 * @property {({up: Card | null} | null)[][]} [columns]  Japanese Joker
 * @property {number[]} [revealed]             Japanese Joker
 * @property {Card[][]} [known_in_hand]        Japanese Joker
 * @property {number} [dealer]                 classic Joker, Japanese Whist
 * @property {number} [deal_number]            classic Joker
 * @property {number} [cards]                  classic Joker: cards each in this deal
 * @property {number[]} [schedule]             classic Joker
 * @property {number} [pulka]                  classic Joker
 * @property {(number | null)[]} [bids]        classic Joker
 * @property {Card | null} [trump_card]        classic Joker
 * @property {Sheet} [sheet]                   classic Joker
 * @property {number[]} [ranking]              classic Joker, at the end
 * @property {"trumps" | "spel_pass"} [variant]  Japanese Whist
 * @property {number} [forehand]               Japanese Whist
 * @property {"spel" | "pass" | null} [contract] Japanese Whist
 * @property {boolean} [hand_locked]           Japanese Whist
 * @property {({up?: Card | null, down?: boolean} | null)[][]} [layout]  Japanese Whist
 */

/**
 * The classic Joker score sheet (CJ-25).
 * @typedef {object} Sheet
 * @property {{deal: number, cards: number, pulka: number, bids: number[], taken: number[], points: number[], marks: (string | null)[]}[]} rows
 * @property {{pulka: number, totals: number[], premia: number[]}[]} pulkas
 */

/**
 * A seat as every frame names it (docs/protocol.md § Clocks for its bank).
 * @typedef {object} SeatEntry
 * @property {number} seat
 * @property {string} name
 * @property {boolean} connected
 * @property {string | null} absence_deadline  set while the seat is absent: when it forfeits
 * @property {string | null} bank_deadline  set while the seat's bank drains: when it runs out
 * @property {number} bank_ms  the seat's bank left at `clocks.server_time`, in ms
 * @property {boolean} forfeited
 * @property {boolean} bot
 * @property {string | null} [bot_strength]
 * @property {number} timeouts
 */

/**
 * The table's clocks: a turn clock, then each seat's bank for the whole match.
 * @typedef {object} Clocks
 * @property {string} server_time
 * @property {"fast" | "normal" | "relaxed"} speed
 * @property {number | null} turn_seat
 * @property {string | null} turn_deadline  when the turn clock runs out, or (turn_on_bank) the bank
 * @property {boolean} turn_on_bank  the seat to act let its turn clock run out: its bank runs now
 * @property {number} turn_seconds
 * @property {number} bank_seconds
 * @property {number} grace_seconds  the bank's old name (= bank_seconds)
 * @property {number} [timeouts_to_forfeit]  a seat whose `timeouts` would reach it forfeits
 */

/**
 * `result` of a finished match (docs/protocol.md § Match end and rematch).
 * @typedef {object} Result
 * @property {"finished" | "forfeit" | "cancelled" | "aborted"} reason
 * @property {number[]} winners
 * @property {string[]} winner_names
 * @property {number[]} forfeited
 * @property {Record<string, string>} [forfeit_reasons]  by seat: left, absent, abandoned, banned
 * @property {number[]} scores
 * @property {number[] | null} [coins]  each seat's Domino Coin won (+) or lost (−); null: free
 * @property {string} seed
 * @property {string} seed_hash
 */

/**
 * @typedef {object} Rematch
 * @property {number[]} accepted
 * @property {number[]} needed
 * @property {number | null} table
 * @property {string | null} url
 */

/**
 * @typedef {object} StateFrame
 * @property {"state"} type
 * @property {number} table
 * @property {number | null} match
 * @property {string} game
 * @property {"open" | "playing" | "finished" | "aborted" | "cancelled"} status
 * @property {number} stake  Domino Coin per seat (0: a free table); a rematch keeps it
 * @property {number} version
 * @property {number} [presence_version]  orders `seats` and `clocks` among frames of one version
 * @property {number | null} seat
 * @property {View | null} view
 * @property {SeatEntry[]} seats
 * @property {Clocks} clocks
 * @property {Result | null} result
 * @property {Rematch | null} rematch
 */

/**
 * @typedef {{type: "ack", id: string, version: number, duplicate: boolean}} AckFrame
 * @typedef {{type: "error", code: string, message: string, id: string | null}} ErrorFrame
 * @typedef {{type: "presence", version: number, presence_version?: number, seats: SeatEntry[], clocks: Clocks}} PresenceFrame
 * @typedef {{type: "match_over", version: number, result: Result}} MatchOverFrame
 * @typedef {{seat: number, name: string, before: number, after: number, delta: number, provisional: boolean}} RatingChange
 * @typedef {{type: "rating", match: number, changes: RatingChange[]}} RatingFrame
 * @typedef {{type: "rematch"} & Rematch} RematchFrame
 * @typedef {{type: "pong", version: number, server_time: string}} PongFrame
 * @typedef {{type: "synced", version: number}} SyncedFrame
 * @typedef {{type: "suggestion", version: number, action: Action}} SuggestionFrame
 * @typedef {StateFrame | AckFrame | ErrorFrame | PresenceFrame | MatchOverFrame | RatingFrame | RematchFrame | PongFrame | SyncedFrame | SuggestionFrame} Frame
 */

export {};
