app_name = "community_api"
urlpatterns: list = []
