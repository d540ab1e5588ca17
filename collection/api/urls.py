app_name = "collection_api"
urlpatterns: list = []
