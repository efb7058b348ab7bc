"""The page's own words in Russian and English (Russian first). The engine's messages (a
D2.1 fault, an illegal request) are shown as the engine words them, with their rule id."""

from __future__ import annotations

from collections.abc import Callable

LANGS = ("ru", "en")

#: key -> (Russian, English)
TEXT: dict[str, tuple[str, str]] = {
    "title": ("Мафия: страница ведущего", "Mafia: the host's page"),
    "nav_table": ("Состав стола", "Pick a table"),
    "nav_compare": ("Сравнение", "Compare"),
    "nav_host": ("Провести игру", "Host a game"),
    "offline": ("Всё считается на этом компьютере; ничего не отправляется в сеть.",
                "Everything is computed on this computer; nothing is sent anywhere."),
    # the table
    "table_intro": ("Выберите число игроков и роли: страница сыграет партии с агентами и "
                    "покажет долю побед каждого лагеря с 95% интервалом.",
                    "Choose the players and roles: the page plays games with the agents and "
                    "shows each camp's win share with its 95% interval."),
    "players": ("Игроков", "Players"),
    "standard": ("Стандартный стол", "Standard table"),
    "roles": ("Роли", "Roles"),
    "rules": ("Правила", "Rule options"),
    "games": ("Партий", "Games"),
    "seed": ("Зерно", "Seed"),
    "total": ("Всего игроков", "Players in all"),
    "run": ("Считать", "Run"),
    "results": ("Кто выигрывает", "Who wins"),
    "camp": ("Лагерь", "Camp"),
    "share": ("Доля побед", "Win share"),
    "interval": ("95% интервал", "95% interval"),
    "wins": ("Побед", "Wins"),
    "progress": ("Сыграно {done} из {target} партий", "{done} of {target} games played"),
    "finished": ("Готово: {done} партий", "Done: {done} games"),
    "cancelled": ("Остановлено", "Stopped"),
    "stop": ("Остановить", "Stop"),
    "waiting": ("Считаю…", "Working…"),
    "turns_mean": ("Партия длится в среднем {mean:.1f} хода", "A game lasts {mean:.1f} turns "
                   "on average"),
    "recommended": ("Рекомендация для {n} игроков (из results/)",
                    "Recommended for {n} players (from results/)"),
    "recommended_none": ("Рекомендации есть для 20-30 игроков.",
                         "Recommendations exist for 20-30 players."),
    "recommended_missing": ("Файл results/recommended.csv не найден в этой установке.",
                            "results/recommended.csv is not in this installation."),
    "rec_composition": ("Рекомендуемый состав", "Recommended table"),
    "rec_standard": ("Стандартный стол", "Standard table"),
    "use_it": ("Взять этот состав", "Use this table"),
    "fix_first": ("Исправьте отмеченные поля.", "Fix the marked fields."),
    # roles and camps
    "role_civilian": ("Мирные жители", "Civilians"),
    "role_commissar": ("Комиссар", "Commissar"),
    "role_sergeant": ("Сержант", "Sergeant"),
    "role_ninja": ("Ниндзя", "Ninja"),
    "role_doctor": ("Врач", "Doctor"),
    "role_necromancer": ("Некромант", "Necromancer"),
    "role_maniac": ("Маньяк", "Maniac"),
    "role_yakuza_mafioso": ("Якудза: мафиози", "Yakuza: mafiosi"),
    "role_kamikaze": ("Якудза: камикадзе", "Yakuza: kamikaze"),
    "role_yakuza_vsb": ("Якудза: ВСБ", "Yakuza: VSB"),
    "role_triad_mafioso": ("Триада: мафиози", "Triad: mafiosi"),
    "role_thug": ("Триада: громила", "Triad: thug"),
    "role_triad_vsb": ("Триада: ВСБ", "Triad: VSB"),
    "camp_town": ("Город", "Town"),
    "camp_yakuza": ("Якудза", "Yakuza"),
    "camp_triad": ("Триада", "Triad"),
    "camp_maniac": ("Маньяк", "Maniac"),
    "camp_draw": ("Ничья", "Draw"),
    "camp_stalemate": ("Пат (лимит ходов)", "Stalemate (turn limit)"),
    # compare
    "compare_intro": ("Два стола или два набора правил на одних и тех же случайных числах: "
                      "разность долей побед с парным 95% интервалом.",
                      "Two tables or two rule sets on common random numbers: the difference "
                      "in win shares with its paired 95% interval."),
    "arm_a": ("Стол A", "Table A"),
    "arm_b": ("Стол B", "Table B"),
    "compare": ("Сравнить", "Compare"),
    "copy_a": ("Скопировать A в B", "Copy A into B"),
    "diff_more": ("{camp}: в B побед на {d:.1f} п. п. больше [{lo:+.1f}, {hi:+.1f}]",
                  "{camp} wins {d:.1f} points more in B [{lo:+.1f}, {hi:+.1f}]"),
    "diff_less": ("{camp}: в B побед на {d:.1f} п. п. меньше [{lo:+.1f}, {hi:+.1f}]",
                  "{camp} wins {d:.1f} points less in B [{lo:+.1f}, {hi:+.1f}]"),
    "diff_same": ("{camp}: без разницы [{lo:+.1f}, {hi:+.1f}]",
                  "{camp}: no difference [{lo:+.1f}, {hi:+.1f}]"),
    "diff_noise": (" (в пределах шума)", " (within noise)"),
    "paired_games": ("{games} пар партий, общие случайные числа", "{games} paired games, "
                     "common random numbers"),
    # host
    "host_intro": ("Впишите игроков, затем каждый ход: голоса дня по порядку и ночные заявки. "
                   "Страница разрешает только то, что позволяют правила, разрешает ход и "
                   "пишет газету.",
                   "Enter the players, then for each turn the day's votes in order and the "
                   "night's requests. The page offers only what the rules allow, resolves "
                   "the turn and writes the newspaper."),
    "name": ("Имя", "Name"),
    "role": ("Роль", "Role"),
    "clan": ("Клан", "Clan"),
    "gender": ("Род", "Gender"),
    "gender_none": ("не указан", "unknown"),
    "gender_m": ("мужской", "masculine"),
    "gender_f": ("женский", "feminine"),
    "no_clan": ("—", "—"),
    "add_player": ("Добавить игрока", "Add a player"),
    "remove": ("Убрать", "Remove"),
    "fill_standard": ("Заполнить стандартным столом", "Fill with the standard table"),
    "start_game": ("Начать игру", "Start the game"),
    "new_game": ("Новая игра", "New game"),
    "save": ("Сохранить файл игры", "Save the game file"),
    "load": ("Загрузить файл игры", "Load a game file"),
    "load_button": ("Загрузить", "Load"),
    "turn": ("Ход {t}", "Turn {t}"),
    "turn0_note": ("Ход 0: принимаются только заявки маньяка (R3.1, R6.2).",
                   "Turn 0: only the maniac's requests are accepted (R3.1, R6.2)."),
    "day": ("День", "Day"),
    "votes": ("Голоса по порядку", "Votes in order"),
    "voter": ("Кто", "Voter"),
    "target": ("Против кого", "Against"),
    "add_vote": ("Добавить голос", "Add the vote"),
    "remove_last_vote": ("Убрать последний голос", "Remove the last vote"),
    "host_lists": ("Выбывшие днём", "Leaving by day"),
    "absent": ("не отписался (R16.1)", "posted nothing (R16.1)"),
    "removed": ("нарушил правила (R16.3)", "broke a rule (R16.3)"),
    "passive": ("пассивен (R16.3)", "passive (R16.3)"),
    "night": ("Ночь", "Night"),
    "no_action": ("— нет заявки —", "— no request —"),
    "order_target": ("цель", "target"),
    "order_shooter": ("стрелок", "shooter"),
    "order_by": ("прислал", "sent by"),
    "the_don": ("Дон", "the Don"),
    "necro_protect": ("протекция", "protect"),
    "necro_army": ("Армия тьмы", "Army of Darkness"),
    "ambush": ("засада", "ambush"),
    "day_ends": ("День заканчивает игру: ночи не будет.", "The day ends the game: no night."),
    "fix_day": ("Сначала исправьте день.", "Fix the day first."),
    "resolve": ("Разрешить ход", "Resolve the turn"),
    "undo": ("Отменить последний ход", "Undo the last turn"),
    "deaths": ("Погибли", "Deaths"),
    "nobody_died": ("Никто не погиб.", "Nobody died."),
    "hanged": ("Повешен", "Hanged"),
    "beaten": ("Избиты", "Beaten"),
    "checks": ("Проверки", "Checks"),
    "seen_by": ("видели", "seen by"),
    "newspaper": ("Газета (для форума)", "Newspaper (for the forum)"),
    "newspaper_en": ("Газета по-английски", "Newspaper in English"),
    "copy": ("Копировать", "Copy"),
    "cause": ("причина", "cause"),
    "game_over": ("Игра окончена: {winner} ({reason}), ход {turn}.",
                  "The game is over: {winner} ({reason}), turn {turn}."),
    "odds": ("Шансы отсюда", "Odds from here"),
    "odds_intro": ("Шанс каждого лагеря выиграть из этой позиции: остаток партии играют "
                   "агенты, много раз.",
                   "Each camp's chance to win from here: the agents play the rest of the game "
                   "many times."),
    "odds_button": ("Посчитать шансы", "Work out the odds"),
    "players_list": ("Игроки", "Players"),
    "alive": ("жив", "alive"),
    "dead": ("выбыл", "out"),
    "history": ("Ходы", "Turns"),
    "limits": ("Пределы: до {players} игроков, {games} партий за запрос, {turns} ходов, файл до "
               "{kb} КБ.",
               "Limits: up to {players} players, {games} games a request, {turns} turns, "
               "files up to {kb} KB."),
    "name_too_long": ("Имя длиннее {n} знаков.", "The name is longer than {n} characters."),
    # before a day is resolved (R16.1, R16.2)
    "warn_title": ("Если разрешить ход так, правила подействуют на этих игроков:",
                   "If the turn is resolved as entered, the rules act on these players:"),
    "warn_absent": ("отмечен как не писавший в этот ход: покинет город в начале хода",
                    "marked as having posted nothing this turn: leaves town at the start of "
                    "the turn"),
    "warn_leaves": ("голос не введён; это его пропуск №{count}: пропадёт без вести в конце "
                    "хода",
                    "no vote entered; his turn without a vote no. {count}: goes missing at "
                    "the end of the turn"),
    "warn_first": ("голос не введён; это его пропуск №{count}: пока остаётся в игре",
                   "no vote entered; his turn without a vote no. {count}: he stays for now"),
    # stored games (sim.web.store)
    "games_stored": ("Сохранённые игры", "Stored games"),
    "games_stored_intro": ("Каждая игра сохраняется после каждого хода на этом компьютере; "
                           "после перезапуска страница вернётся к игре, которую вы вели.",
                           "Every game is stored after each turn on this computer; after a "
                           "restart the page comes back to the game you were hosting."),
    "game_name": ("Название", "Name"),
    "game_updated": ("Последний ход", "Last played"),
    "game_rename": ("Переименовать", "Rename"),
    "game_resume": ("Продолжить", "Resume"),
    "game_current": ("на странице", "on this page"),
    "game_download": ("Скачать", "Download"),
    "game_delete": ("Удалить", "Delete"),
    "game_delete_confirm": ("Удалить игру «{name}» навсегда?",
                            "Delete the game “{name}” for good?"),
    "game_gone": ("Этой игры больше нет в хранилище (её удалили на другой странице).",
                  "This game is no longer stored (deleted on another page)."),
    "game_stale": ("Эту игру изменили на другой странице (во второй вкладке или у другого "
                   "ведущего): она показана, как сохранена сейчас; введите ход заново.",
                   "This game was changed on another page (a second tab or host): it is "
                   "shown as stored now; enter the turn again."),
    "page_stale": ("Эта страница устарела: игра изменилась в другой вкладке; она показана, "
                   "как сохранена сейчас.",
                   "This page was out of date: the game changed in another tab; it is shown "
                   "as stored now."),
    "game_missing": ("Такой сохранённой игры нет.", "There is no such stored game."),
    "game_name_empty": ("Название игры не может быть пустым.",
                        "A game's name must not be empty."),
    "game_newer": ("Игра «{name}» не открывается: её сохранила более новая версия mafia-sim "
                   "(формат {fmt}, эта версия читает до {known}); обновите mafia-sim.",
                   "The stored game “{name}” does not load: a newer mafia-sim stored it "
                   "(format {fmt}; this version reads up to format {known}); update "
                   "mafia-sim to open it."),
    "game_damaged": ("Игра «{name}» не открывается: её файл повреждён.",
                     "The stored game “{name}” does not load: its game file is damaged."),
    "error_title": ("Ошибка", "Error"),
    "back": ("Назад", "Back"),
    "not_found": ("Такой страницы нет.", "No such page."),
}


def translator(lang: str) -> Callable[..., str]:
    """`t(key, **values)` in the language; an unknown key shows itself (never fails)."""
    i = LANGS.index(lang) if lang in LANGS else 0

    def t(key: str, **values: object) -> str:
        pair = TEXT.get(key)
        if pair is None:
            return key
        text = pair[i]
        return text.format(**values) if values else text

    return t
