from tournaments.events import services
from tournaments.management.organizer import OrganizerCommand


class Command(OrganizerCommand):
    help = "Forms the qualifying groups, schedules their round robins and starts the Qualifying Stage."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--groups", type=int, required=True, help="number of qualifying groups")
        parser.add_argument("--method", choices=["random", "seeded", "rating"], default="random")
        parser.add_argument("--seed", type=int, help="seed of the random draw (recorded and shown)")
        parser.add_argument("--preview", action="store_true", help="show the groups without saving them")

    def run(self, event, actor, groups, method, seed, preview, **options):
        plan = services.plan_groups(event, groups, method, seed=seed)
        if not preview:
            services.form_groups(event, groups, method, seed=plan.seed, actor=actor)
        key_names = {g.key: g.name for members in plan.groups for g in members}
        for index, members in enumerate(plan.groups):
            self.stdout.write(f"{services.group_name(index)}: {', '.join(g.name for g in members)}")
        if plan.seed_ratings:
            self.stdout.write("Seeds by rating: " + ", ".join(
                f"{seed}. {key_names[key]} ({round(rating) if rating is not None else 'unrated'})"
                for key, (seed, rating) in sorted(plan.seed_ratings.items(), key=lambda item: item[1][0])))
        if plan.seed is not None:
            self.stdout.write(f"Random draw seed: {plan.seed}")
        if preview:
            self.stdout.write("Preview only: nothing was saved.")
